#!/usr/bin/env python3
"""agent.py — 一个完整的编码 agent：父循环、task 工具和自带循环的子 agent。

    pip install anthropic python-dotenv
    echo "MODEL_ID=claude-sonnet-4-5" >> .env
    python agent.py

父 agent 有 bash / read_file / write_file / task 四个工具；task 启动子 agent，
子 agent 从只含 prompt 的新 messages 开始，工具更少（没有 task），只把最后的文字交回。
"""

import os
import subprocess
from pathlib import Path

from anthropic import Anthropic
from dotenv import load_dotenv

load_dotenv(override=True)

WORKDIR = Path.cwd()
client = Anthropic(base_url=os.getenv("ANTHROPIC_BASE_URL"))
MODEL = os.environ["MODEL_ID"]
SUB_MAX_TURNS = 6

SYSTEM = f"You are a coding agent at {WORKDIR}. Use the task tool for focused exploration."
SUB_SYSTEM = f"You are a subagent at {WORKDIR}. Do the task, then reply with a short summary."

DANGEROUS = ["rm -rf /", "sudo", "shutdown", "reboot", "> /dev/"]


# -- 工具实现：路径都限制在 WORKDIR 里 --
def safe_path(p: str) -> Path:
    path = (WORKDIR / p).resolve()
    if not path.is_relative_to(WORKDIR):
        raise ValueError(f"Path escapes workspace: {p}")
    return path


def run_bash(command: str) -> str:
    if any(d in command for d in DANGEROUS):
        return "Error: Dangerous command blocked"
    try:
        r = subprocess.run(command, shell=True, cwd=WORKDIR,
                           capture_output=True, text=True, timeout=120)
        out = (r.stdout + r.stderr).strip()
        return out[:50000] if out else "(no output)"
    except subprocess.TimeoutExpired:
        return "Error: Timeout (120s)"


def run_read(path: str, limit: int = None) -> str:
    try:
        lines = safe_path(path).read_text().splitlines()
        if limit and limit < len(lines):
            lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
        return "\n".join(lines)[:50000]
    except Exception as e:
        return f"Error: {e}"


def run_write(path: str, content: str) -> str:
    try:
        fp = safe_path(path)
        fp.parent.mkdir(parents=True, exist_ok=True)
        fp.write_text(content)
        return f"Wrote {len(content)} bytes to {path}"
    except Exception as e:
        return f"Error: {e}"


# -- 工具表：父 agent 四个，子 agent 没有 task --
TOOLS = [
    {"name": "bash", "description": "Run a shell command in the workspace.",
     "input_schema": {"type": "object", "properties": {"command": {"type": "string"}},
                      "required": ["command"]}},
    {"name": "read_file", "description": "Read a file of the workspace.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"},
                                                       "limit": {"type": "integer"}},
                      "required": ["path"]}},
    {"name": "write_file", "description": "Write a file of the workspace.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"},
                                                       "content": {"type": "string"}},
                      "required": ["path", "content"]}},
    {"name": "task", "description": "Hand a focused subtask to a subagent with fresh context.",
     "input_schema": {"type": "object", "properties": {"prompt": {"type": "string"}},
                      "required": ["prompt"]}},
]
SUB_TOOLS = [t for t in TOOLS if t["name"] != "task"]

TOOL_HANDLERS = {
    "bash":       lambda **kw: run_bash(kw["command"]),
    "read_file":  lambda **kw: run_read(kw["path"], kw.get("limit")),
    "write_file": lambda **kw: run_write(kw["path"], kw["content"]),
    "task":       lambda **kw: run_subagent(kw["prompt"]),
}


def run_subagent(prompt: str) -> str:
    messages = [{"role": "user", "content": prompt}]
    for _ in range(SUB_MAX_TURNS):
        response = client.messages.create(
            model=MODEL, system=SUB_SYSTEM, messages=messages,
            tools=SUB_TOOLS, max_tokens=8000,
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return "".join(b.text for b in response.content if b.type == "text") or "(no summary)"
        results = []
        for block in response.content:
            if block.type == "tool_use":
                handler = TOOL_HANDLERS.get(block.name)
                if block.name == "task" or handler is None:
                    output = f"Unknown tool: {block.name}"
                else:
                    output = handler(**block.input)
                print(f"  [sub] {block.name}: {output[:60]}")
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": output})
        messages.append({"role": "user", "content": results})
    return f"Subagent stopped after {SUB_MAX_TURNS} turns without a final answer."


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
                print(f"> {block.name}: {output[:80]}")
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": output})
        messages.append({"role": "user", "content": results})


if __name__ == "__main__":
    history = []
    while True:
        try:
            query = input("\033[36magent >> \033[0m")
        except (EOFError, KeyboardInterrupt):
            break
        if query.strip().lower() in ("q", "exit", ""):
            break
        history.append({"role": "user", "content": query})
        agent_loop(history)
        last = history[-1]["content"]
        print("".join(b.text for b in last if b.type == "text"))
        print()
