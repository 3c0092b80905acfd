"""s06_subagent/agent.py —— 第六篇：Subagent，给 Agent 造一个分身。

主 Agent 遇到调查类的活，用 task 工具派一个子 Agent：子 Agent 从一张白纸（全新的
messages[]）开始，工具比父级少一个 task，干完只把结论交回。父子共用同一个进程、
同一个 WORKDIR、同一道权限门禁。
"""

import glob
import subprocess
from pathlib import Path

from anthropic import Anthropic

WORKDIR = Path.cwd()
client = Anthropic()
MODEL = "claude-sonnet-4-5"
SYSTEM = f"You are a coding agent at {WORKDIR}. Use the task tool to delegate investigations."
SUB_SYSTEM = f"You are a subagent at {WORKDIR}. Complete the task, then reply with a short conclusion."


# ==== 本课自己的部分：前几课写过的五个基础工具和权限门禁，按本系列的写法重写一遍 ====
# ---- 第二篇：双手（工具分发），路径都限制在 WORKDIR 里 ----
def safe_path(p: str) -> Path:
    path = (WORKDIR / p).resolve()
    if not path.is_relative_to(WORKDIR):
        raise ValueError(f"Path escapes workspace: {p}")
    return path


def run_bash(command: str) -> str:
    try:
        r = subprocess.run(command, shell=True, cwd=WORKDIR,
                           capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "Error: Timeout (120s)"
    out = (r.stdout + r.stderr).strip()
    return out[:50000] if out else "(no output)"


def run_read(path: str, limit: int = None) -> str:
    lines = safe_path(path).read_text().splitlines()
    if limit and limit < len(lines):
        lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
    return "\n".join(lines)[:50000]


def run_write(path: str, content: str) -> str:
    fp = safe_path(path)
    fp.parent.mkdir(parents=True, exist_ok=True)
    fp.write_text(content)
    return f"Wrote {len(content.encode())} bytes to {path}"


def run_edit(path: str, old_text: str, new_text: str) -> str:
    fp = safe_path(path)
    text = fp.read_text()
    if old_text not in text:
        return f"Error: text not found in {path}"
    fp.write_text(text.replace(old_text, new_text, 1))
    return f"Edited {path}"


def run_glob(pattern: str) -> str:
    matches = sorted(glob.glob(pattern, root_dir=WORKDIR, recursive=True))
    return "\n".join(matches) or "(no matches)"


BASE_TOOLS = [
    {"name": "bash", "description": "Run a shell command.",
     "input_schema": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}},
    {"name": "read_file", "description": "Read file contents.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["path"]}},
    {"name": "write_file", "description": "Write content to a file.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}, "required": ["path", "content"]}},
    {"name": "edit_file", "description": "Replace exact text in a file once.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "old_text": {"type": "string"}, "new_text": {"type": "string"}}, "required": ["path", "old_text", "new_text"]}},
    {"name": "glob", "description": "Find files matching a glob pattern.",
     "input_schema": {"type": "object", "properties": {"pattern": {"type": "string"}}, "required": ["pattern"]}},
]

BASE_HANDLERS = {
    "bash": run_bash,
    "read_file": run_read,
    "write_file": run_write,
    "edit_file": run_edit,
    "glob": run_glob,
}


# ---- 第三篇：神经（权限系统），工具执行的入口只有一个 ----
DENY_LIST = ["rm -rf", "sudo", "shutdown", "reboot", "mkfs"]


def check_permission(block) -> str:
    """门禁只看工具调用本身：deny list 上的命令、工作区外的路径，一律拒绝。"""
    if block.name == "bash":
        command = block.input.get("command", "")
        if any(item in command for item in DENY_LIST):
            return "deny"
    path = block.input.get("path")
    if path is not None and not (WORKDIR / path).resolve().is_relative_to(WORKDIR):
        return "deny"
    return "allow"


def execute_tool(block, handlers: dict) -> str:
    if check_permission(block) == "deny":
        return f"Permission denied: {block.name} {block.input}"
    handler = handlers.get(block.name)
    try:
        output = handler(**block.input) if handler else f"Unknown tool: {block.name}"
    except Exception as e:
        output = f"Error: {e}"
    return str(output)


# ==== 第六篇（本文 PART 02）：子 Agent ====
SUB_TOOLS = list(BASE_TOOLS)      # 注意：里面没有 task
SUB_HANDLERS = dict(BASE_HANDLERS)


def extract_text(content) -> str:
    if not isinstance(content, list):
        return str(content)
    return "\n".join(
        getattr(block, "text", "")
        for block in content
        if getattr(block, "type", None) == "text"
    )


def run_subagent(prompt: str) -> str:
    print("\n\033[35m[Subagent started]\033[0m")
    messages = [{"role": "user", "content": prompt}]     # 一张白纸

    for _ in range(30):
        response = client.messages.create(
            model=MODEL,
            system=SUB_SYSTEM,
            messages=messages,          # 注意：是子循环自己的 messages
            tools=SUB_TOOLS,
            max_tokens=8000,
        )
        messages.append({"role": "assistant", "content": response.content})

        tool_calls = [
            block for block in response.content if block.type == "tool_use"
        ]
        if not tool_calls:                               # 没有工具调用了 = 干完了
            print("\033[35m[Subagent done]\033[0m")
            return extract_text(response.content) or "(no summary)"

        results = []
        for block in tool_calls:
            output = execute_tool(block, SUB_HANDLERS)
            print(f"  \033[90m[sub] {block.name}: {output[:100]}\033[0m")
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": output,
            })
        messages.append({"role": "user", "content": results})

    print("\033[35m[Subagent stopped]\033[0m")
    return "Subagent stopped after 30 turns without a final answer."


TASK_TOOL = {
    "name": "task",
    "description": "Run a subagent with fresh conversation context and return its final text.",
    "input_schema": {
        "type": "object",
        "properties": {"prompt": {"type": "string", "minLength": 1}},
        "required": ["prompt"],
    },
}

TOOLS = [*BASE_TOOLS, TASK_TOOL]
TOOL_HANDLERS = {**BASE_HANDLERS, "task": run_subagent}


# ==== 本课自己的部分：第一篇的主循环，工具同样走 execute_tool ====
def agent_loop(messages: list):
    while True:
        response = client.messages.create(
            model=MODEL,
            system=SYSTEM,
            messages=messages,
            tools=TOOLS,
            max_tokens=8000,
        )
        messages.append({"role": "assistant", "content": response.content})

        if response.stop_reason != "tool_use":
            return

        results = []
        for block in response.content:
            if block.type != "tool_use":
                continue
            output = execute_tool(block, TOOL_HANDLERS)
            print(f"> {block.name}: {output[:200]}")
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": output,
            })
        messages.append({"role": "user", "content": results})
