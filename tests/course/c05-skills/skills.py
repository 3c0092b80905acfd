#!/usr/bin/env python3
"""
skills.py - Skills, loaded when asked for

A skill is a folder under skills/ holding a SKILL.md: a few lines of
frontmatter (name, description) and a body of instructions. The system
prompt carries only the one-line catalog; the body reaches the model
when it calls load_skill, as that tool's result.

    skills/*/SKILL.md --> catalog "- name: description" --> SYSTEM
                      --> load_skill(name)  ------------> tool_result

Cheap to list, paid for only when used.
"""

import os
import re
import subprocess
from pathlib import Path

from anthropic import Anthropic
from dotenv import load_dotenv

load_dotenv(override=True)

WORKDIR = Path.cwd()
SKILLS_DIR = WORKDIR / "skills"
client = Anthropic(base_url=os.getenv("ANTHROPIC_BASE_URL"))
MODEL = os.environ["MODEL_ID"]


def parse_skill(text: str) -> tuple:
    """(frontmatter fields, body) of a SKILL.md; no frontmatter: ({}, the whole text)."""
    match = re.match(r"^---\n(.*?)\n---\n?(.*)$", text, re.DOTALL)
    if not match:
        return {}, text.strip()
    meta = {}
    for line in match.group(1).splitlines():
        key, sep, value = line.partition(":")
        if sep:
            meta[key.strip()] = value.strip()
    return meta, match.group(2).strip()


class SkillShelf:
    def __init__(self, root: Path):
        self.skills = {}
        for path in sorted(root.glob("*/SKILL.md")):
            meta, body = parse_skill(path.read_text())
            name = meta.get("name", path.parent.name)
            self.skills[name] = {"description": meta.get("description", "(no description)"),
                                 "body": body}

    def catalog(self) -> str:
        if not self.skills:
            return "(no skills installed)"
        return "\n".join(f"- {name}: {skill['description']}"
                         for name, skill in sorted(self.skills.items()))

    def load(self, name: str) -> str:
        skill = self.skills.get(name)
        if skill is None:
            known = ", ".join(sorted(self.skills)) or "none"
            return f"Error: no skill named '{name}' (installed: {known})"
        return f'<skill name="{name}">\n{skill["body"]}\n</skill>'


SHELF = SkillShelf(SKILLS_DIR)

SYSTEM = f"""You are a coding agent working in {WORKDIR}.
Before a task that one of these skills covers, call load_skill to read it:
{SHELF.catalog()}"""


def run_bash(command: str) -> str:
    if any(bad in command for bad in ("rm -rf /", "sudo ", "mkfs", "> /dev/")):
        return "Error: refused a dangerous command"
    try:
        r = subprocess.run(command, shell=True, cwd=WORKDIR,
                           capture_output=True, text=True, timeout=120)
        out = (r.stdout + r.stderr).strip()
        return out[:50000] if out else "(no output)"
    except subprocess.TimeoutExpired:
        return "Error: timed out after 120s"


def run_read(path: str) -> str:
    target = (WORKDIR / path).resolve()
    if not target.is_relative_to(WORKDIR):
        return f"Error: {path} is outside the workspace"
    try:
        return target.read_text()[:50000]
    except OSError as e:
        return f"Error: {e}"


TOOL_HANDLERS = {
    "bash":       lambda **kw: run_bash(kw["command"]),
    "read_file":  lambda **kw: run_read(kw["path"]),
    "load_skill": lambda **kw: SHELF.load(kw["name"]),
}

TOOLS = [
    {"name": "bash", "description": "Run a shell command in the workspace.",
     "input_schema": {"type": "object", "properties": {"command": {"type": "string"}},
                      "required": ["command"]}},
    {"name": "read_file", "description": "Read a file of the workspace.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                      "required": ["path"]}},
    {"name": "load_skill", "description": "Read the full instructions of a skill by its name.",
     "input_schema": {"type": "object", "properties": {"name": {"type": "string"}},
                      "required": ["name"]}},
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
                output = handler(**block.input) if handler else f"Unknown tool: {block.name}"
                print(f"> {block.name}: {str(output)[:200]}")
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": str(output)})
        messages.append({"role": "user", "content": results})


if __name__ == "__main__":
    history = []
    while True:
        try:
            query = input("\033[36mc05 >> \033[0m")
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
