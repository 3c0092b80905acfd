#!/usr/bin/env python3
"""
worktrees.py - One worktree per task

Parallel work needs separate checkouts. Each task gets a git worktree of its
own under .worktrees/<name>, on a branch wt/<name>; an index and an event
log keep track of them:

    .worktrees/index.json     {"worktrees": [{"name", "path", "branch",
                                              "task", "status", "created_at"}]}
    .worktrees/events.jsonl   {"event": "create.start", "ts": ...} one a line

    create(name) --> git worktree add -b wt/<name> <path> HEAD --> index + events
    remove(name) --> git worktree remove <path>                --> index + events
"""

import json
import os
import re
import subprocess
import time
from pathlib import Path

from anthropic import Anthropic
from dotenv import load_dotenv

load_dotenv(override=True)

WORKDIR = Path.cwd()
client = Anthropic(base_url=os.getenv("ANTHROPIC_BASE_URL"))
MODEL = os.environ["MODEL_ID"]

SYSTEM = f"""You are a coding agent at {WORKDIR}.
Give each task its own worktree (worktree_create) so tasks never share a checkout."""

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")


class WorktreeManager:
    def __init__(self, repo: Path):
        self.repo = repo
        self.home = repo / ".worktrees"
        self.home.mkdir(exist_ok=True)
        self.index_file = self.home / "index.json"
        self.events_file = self.home / "events.jsonl"
        if not self.index_file.exists():
            self.index_file.write_text(json.dumps({"worktrees": []}, indent=2))

    def _git(self, *args) -> str:
        r = subprocess.run(["git", *args], cwd=self.repo,
                           capture_output=True, text=True, timeout=120)
        said = (r.stdout + r.stderr).strip()
        if r.returncode != 0:
            raise RuntimeError(said or f"git {args[0]} exited with {r.returncode}")
        return said

    def _log(self, event: str, **fields):
        with open(self.events_file, "a") as f:
            f.write(json.dumps({"event": event, "ts": time.time(), **fields}) + "\n")

    def _entries(self) -> list:
        return json.loads(self.index_file.read_text())["worktrees"]

    def _write(self, entries: list):
        self.index_file.write_text(json.dumps({"worktrees": entries}, indent=2))

    def create(self, name: str, task: str = None) -> dict:
        if not NAME.fullmatch(name):
            raise ValueError(f"bad worktree name {name!r}: letters, digits, . _ - only")
        entries = self._entries()
        if any(e["name"] == name and e["status"] == "active" for e in entries):
            raise ValueError(f"worktree {name} exists already")
        path = self.home / name
        branch = f"wt/{name}"
        self._log("create.start", name=name)
        try:
            said = self._git("worktree", "add", "-b", branch, str(path), "HEAD")
        except RuntimeError as e:
            self._log("create.failed", name=name, error=str(e))
            raise
        entry = {"name": name, "path": str(path), "branch": branch, "task": task,
                 "status": "active", "created_at": time.time()}
        self._write(entries + [entry])
        self._log("create.done", name=name)
        return {**entry, "git": said}

    def remove(self, name: str) -> dict:
        entries = self._entries()
        entry = next((e for e in entries if e["name"] == name and e["status"] == "active"),
                     None)
        if entry is None:
            raise ValueError(f"no active worktree {name}")
        self._git("worktree", "remove", entry["path"])
        entry["status"] = "removed"
        entry["removed_at"] = time.time()
        self._write(entries)
        self._log("remove.done", name=name)
        return entry

    def listing(self) -> str:
        rows = [f"{e['name']:<12} {e['status']:<8} {e['branch']:<16} {e['path']}"
                for e in self._entries()]
        return "\n".join(rows) or "(no worktrees)"


WORKTREES = WorktreeManager(WORKDIR)


def run_bash(command: str) -> str:
    if any(bad in command for bad in ("rm -rf /", "sudo ", "shutdown", "> /dev/")):
        return "Error: refused a dangerous command"
    try:
        r = subprocess.run(command, shell=True, cwd=WORKDIR,
                           capture_output=True, text=True, timeout=120)
        out = (r.stdout + r.stderr).strip()
        return out[:50000] if out else "(no output)"
    except subprocess.TimeoutExpired:
        return "Error: timed out after 120s"


TOOL_HANDLERS = {
    "bash":            lambda **kw: run_bash(kw["command"]),
    "worktree_create": lambda **kw: WORKTREES.create(kw["name"], kw.get("task")),
    "worktree_remove": lambda **kw: WORKTREES.remove(kw["name"]),
    "worktree_list":   lambda **kw: WORKTREES.listing(),
}

TOOLS = [
    {"name": "bash", "description": "Run a shell command in the repository.",
     "input_schema": {"type": "object", "properties": {"command": {"type": "string"}},
                      "required": ["command"]}},
    {"name": "worktree_create", "description": "Make a worktree and branch for a task.",
     "input_schema": {"type": "object", "properties": {
         "name": {"type": "string"}, "task": {"type": "string"}}, "required": ["name"]}},
    {"name": "worktree_remove", "description": "Remove a worktree by name.",
     "input_schema": {"type": "object", "properties": {"name": {"type": "string"}},
                      "required": ["name"]}},
    {"name": "worktree_list", "description": "List the worktrees.",
     "input_schema": {"type": "object", "properties": {}}},
]


def agent_loop(messages: list):
    while True:
        response = client.messages.create(
            model=MODEL, system=SYSTEM, messages=messages,
            tools=TOOLS, max_tokens=8000,
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        results = []
        for block in response.content:
            if block.type == "tool_use":
                handler = TOOL_HANDLERS.get(block.name)
                try:
                    output = handler(**block.input) if handler else f"Unknown tool: {block.name}"
                except Exception as e:
                    output = f"Error: {e}"
                print(f"> {block.name}: {str(output)[:200]}")
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": output if isinstance(output, str)
                                else json.dumps(output)})
        messages.append({"role": "user", "content": results})


if __name__ == "__main__":
    history = []
    while True:
        try:
            query = input("\033[36mc12 >> \033[0m")
        except (EOFError, KeyboardInterrupt):
            break
        if query.strip().lower() in ("q", "exit", ""):
            break
        history.append({"role": "user", "content": query})
        agent_loop(history)
        for block in history[-1]["content"]:
            if hasattr(block, "text"):
                print(block.text)
        print()
