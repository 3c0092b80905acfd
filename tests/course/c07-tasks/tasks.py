#!/usr/bin/env python3
"""
tasks.py - A task board on disk

Each task is one JSON file in .tasks/, so the plan outlives the
conversation (and any compaction of it):

    .tasks/3f2a9c1e.json  {"id", "subject", "status", "blockedBy", "created_at"}

A task blocked by others cannot start until they are completed; completing
a task takes its id out of every blockedBy list.

    pending --> in_progress --> completed
       ^ only when blockedBy is empty
"""

import json
import os
import subprocess
import uuid
from datetime import datetime
from pathlib import Path

from anthropic import Anthropic
from dotenv import load_dotenv

load_dotenv(override=True)

WORKDIR = Path.cwd()
client = Anthropic(base_url=os.getenv("ANTHROPIC_BASE_URL"))
MODEL = os.environ["MODEL_ID"]

SYSTEM = f"""You are a coding agent at {WORKDIR}.
Plan work as tasks on the board (task_create), keep their status current (task_update)
and check the board (task_list) before you start something new."""

STATUSES = ("pending", "in_progress", "completed")


class TaskBoard:
    def __init__(self, root: Path):
        self.root = root
        self.root.mkdir(exist_ok=True)

    def _file(self, task_id: str) -> Path:
        return self.root / f"{task_id}.json"

    def _load(self, task_id: str) -> dict:
        path = self._file(task_id)
        if not path.exists():
            raise ValueError(f"no task {task_id}")
        return json.loads(path.read_text())

    def _save(self, task: dict):
        self._file(task["id"]).write_text(json.dumps(task, indent=2))

    def _all(self) -> list:
        tasks = [json.loads(p.read_text()) for p in self.root.glob("*.json")]
        return sorted(tasks, key=lambda t: (t["created_at"], t["id"]))

    def create(self, subject: str, description: str = "", blocked_by=None) -> str:
        for other in blocked_by or []:
            self._load(other)
        task = {"id": uuid.uuid4().hex[:8], "subject": subject, "description": description,
                "status": "pending", "blockedBy": list(blocked_by or []),
                "created_at": datetime.now().isoformat()}
        self._save(task)
        return json.dumps(task, indent=2)

    def update(self, task_id: str, status: str = None, add_blocked_by=None) -> str:
        task = self._load(task_id)
        for other in add_blocked_by or []:
            self._load(other)
            if other not in task["blockedBy"]:
                task["blockedBy"].append(other)
        if status is not None:
            if status not in STATUSES:
                raise ValueError(f"status must be one of {', '.join(STATUSES)}")
            if status == "in_progress" and task["blockedBy"]:
                return f"Error: {task_id} is blocked by {', '.join(task['blockedBy'])}"
            task["status"] = status
        self._save(task)
        if status == "completed":
            self._unblock(task_id)
        return json.dumps(task, indent=2)

    def _unblock(self, done_id: str):
        for task in self._all():
            if done_id in task["blockedBy"]:
                task["blockedBy"].remove(done_id)
                self._save(task)

    def render(self) -> str:
        tasks = self._all()
        if not tasks:
            return "(no tasks)"
        marks = {"pending": "[ ]", "in_progress": "[>]", "completed": "[x]"}
        lines = []
        for t in tasks:
            waits = f" (blocked by {', '.join(t['blockedBy'])})" if t["blockedBy"] else ""
            lines.append(f"{marks[t['status']]} {t['id']} {t['subject']}{waits}")
        done = sum(t["status"] == "completed" for t in tasks)
        return "\n".join(lines + [f"{done}/{len(tasks)} completed"])


BOARD = TaskBoard(WORKDIR / ".tasks")


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
    "bash":        lambda **kw: run_bash(kw["command"]),
    "task_create": lambda **kw: BOARD.create(kw["subject"], kw.get("description", ""),
                                             kw.get("blockedBy")),
    "task_update": lambda **kw: BOARD.update(kw["task_id"], kw.get("status"),
                                             kw.get("addBlockedBy")),
    "task_list":   lambda **kw: BOARD.render(),
}

TOOLS = [
    {"name": "bash", "description": "Run a shell command in the workspace.",
     "input_schema": {"type": "object", "properties": {"command": {"type": "string"}},
                      "required": ["command"]}},
    {"name": "task_create", "description": "Add a task to the board.",
     "input_schema": {"type": "object", "properties": {
         "subject": {"type": "string"}, "description": {"type": "string"},
         "blockedBy": {"type": "array", "items": {"type": "string"}}},
         "required": ["subject"]}},
    {"name": "task_update", "description": "Change a task's status or what blocks it.",
     "input_schema": {"type": "object", "properties": {
         "task_id": {"type": "string"},
         "status": {"type": "string", "enum": list(STATUSES)},
         "addBlockedBy": {"type": "array", "items": {"type": "string"}}},
         "required": ["task_id"]}},
    {"name": "task_list", "description": "Show every task with its status.",
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
                                "content": str(output)})
        messages.append({"role": "user", "content": results})


if __name__ == "__main__":
    history = []
    while True:
        try:
            query = input("\033[36mc07 >> \033[0m")
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
