#!/usr/bin/env python3
"""
compact.py - Keeping the context small

Two ways the history shrinks before each model call:

    micro: every tool result but the newest KEEP_RECENT becomes a one-line
           placeholder ("[cleared: N chars of bash output]")
    auto:  when the estimated token count passes THRESHOLD, the whole
           transcript goes to .transcripts/transcript_<time>.jsonl, the model
           writes a summary, and the history becomes that summary alone

The model can also ask for the second one itself with the compact tool.
"""

import json
import os
import subprocess
import time
from pathlib import Path

from anthropic import Anthropic
from dotenv import load_dotenv

load_dotenv(override=True)

WORKDIR = Path.cwd()
TRANSCRIPTS = WORKDIR / ".transcripts"
client = Anthropic(base_url=os.getenv("ANTHROPIC_BASE_URL"))
MODEL = os.environ["MODEL_ID"]

THRESHOLD = 1200      # estimated tokens; small, so a lesson reaches it
KEEP_RECENT = 2       # tool results kept whole by micro-compaction

SYSTEM = f"You are a coding agent at {WORKDIR}. Call compact when the history gets long."
SUMMARY_SYSTEM = "You condense agent transcripts into a summary another agent can continue from."


def estimate_tokens(messages: list) -> int:
    """About four characters a token."""
    return len(str(messages)) // 4


def micro_compact(messages: list) -> int:
    """Clear old tool results in place; returns how many were cleared now."""
    names = {}
    parts = []
    for msg in messages:
        if not isinstance(msg["content"], list):
            continue
        for part in msg["content"]:
            if getattr(part, "type", None) == "tool_use":
                names[part.id] = part.name
            elif isinstance(part, dict) and part.get("type") == "tool_result":
                parts.append(part)
    cleared = 0
    for part in parts[:-KEEP_RECENT]:
        text = part["content"]
        if isinstance(text, str) and not text.startswith("[cleared") and len(text) > 100:
            tool = names.get(part["tool_use_id"], "tool")
            part["content"] = f"[cleared: {len(text)} chars of {tool} output]"
            cleared += 1
    return cleared


def auto_compact(messages: list) -> list:
    """Save the transcript, ask for a summary, return the new history."""
    TRANSCRIPTS.mkdir(exist_ok=True)
    path = TRANSCRIPTS / f"transcript_{int(time.time())}.jsonl"
    with open(path, "w") as f:
        for msg in messages:
            f.write(json.dumps(msg, default=str) + "\n")
    print(f"[transcript saved: {path}]")
    response = client.messages.create(
        model=MODEL, system=SUMMARY_SYSTEM, max_tokens=2000,
        messages=[{"role": "user", "content":
                   "Summarize what was asked, what was done and what is left:\n\n"
                   + str(messages)[:60000]}],
    )
    summary = "".join(b.text for b in response.content if b.type == "text")
    return [{"role": "user",
             "content": f"[Compacted; the full transcript is {path}]\n\n{summary}"}]


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


def run_read(path: str) -> str:
    target = (WORKDIR / path).resolve()
    if not target.is_relative_to(WORKDIR):
        return f"Error: {path} is outside the workspace"
    try:
        return target.read_text()[:50000]
    except OSError as e:
        return f"Error: {e}"


TOOL_HANDLERS = {
    "bash":      lambda **kw: run_bash(kw["command"]),
    "read_file": lambda **kw: run_read(kw["path"]),
    "compact":   lambda **kw: "Compacting the history after this turn.",
}

TOOLS = [
    {"name": "bash", "description": "Run a shell command in the workspace.",
     "input_schema": {"type": "object", "properties": {"command": {"type": "string"}},
                      "required": ["command"]}},
    {"name": "read_file", "description": "Read a file of the workspace.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                      "required": ["path"]}},
    {"name": "compact", "description": "Replace the history with a summary of it.",
     "input_schema": {"type": "object", "properties": {}}},
]


def agent_loop(messages: list):
    while True:
        cleared = micro_compact(messages)
        if cleared:
            print(f"[micro compact: {cleared} old result(s) cleared]")
        if estimate_tokens(messages) > THRESHOLD:
            print(f"[auto compact: ~{estimate_tokens(messages)} tokens]")
            messages[:] = auto_compact(messages)
        response = client.messages.create(
            model=MODEL, system=SYSTEM, messages=messages,
            tools=TOOLS, max_tokens=8000,
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        results = []
        asked_compact = False
        for block in response.content:
            if block.type == "tool_use":
                asked_compact = asked_compact or block.name == "compact"
                handler = TOOL_HANDLERS.get(block.name)
                output = handler(**block.input) if handler else f"Unknown tool: {block.name}"
                print(f"> {block.name}: {str(output)[:200]}")
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": str(output)})
        messages.append({"role": "user", "content": results})
        if asked_compact:
            print("[manual compact]")
            messages[:] = auto_compact(messages)


if __name__ == "__main__":
    history = []
    while True:
        try:
            query = input("\033[36mc06 >> \033[0m")
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
