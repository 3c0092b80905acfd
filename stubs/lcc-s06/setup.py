import glob as _glob
import subprocess
from pathlib import Path

from anthropic import Anthropic
from anthropic.types import ToolUseBlock

# 教学替身：SDK、subprocess、工作目录和 input() 的回答都由 lesson.toml 的 [standins] 提供。
# 这里补上文章只描述、没有给出代码的部分（文件工具、hooks、权限询问），再编排模型每一轮的回答。
ROOT = Path.cwd()                        # 本次运行的文件夹，运行结束后整个删掉
WORKDIR = ROOT / "workspace"             # 工作区：只有 requirements.txt
OUTSIDE = ROOT / "outside.txt"           # 工作区之外：denied 预设想写的位置

client = Anthropic()
MODEL = "claude-sonnet-4-5"
SYSTEM = (
    f"You are a coding agent at {WORKDIR}. "
    "Use task for focused exploration or a self-contained subtask."
)
SUB_SYSTEM = (
    f"You are a coding agent at {WORKDIR}. "
    "Complete the given task, then return a concise final answer."
)
QUESTION = "这个项目用什么测试框架？"
PROMPT = {
    "denied": "把一行 hello 写进 ../outside.txt，然后汇报结果。",
}.get(scenario, "读取 requirements.txt，找出这个项目使用的测试框架，返回名称和版本。")


# 模型每一轮的回答：一段文字，或一个 tool_use 块（id 由替身按顺序编号）
def tool(name, **args):
    return {"type": "tool_use", "name": name, "input": args}


CHILD_FIRST = {
    "denied": tool("write_file", path="../outside.txt", content="hello\n"),
}.get(scenario, tool("read_file", path="requirements.txt"))
CHILD_ANSWER = {
    "answers": "测试框架是 pytest（requirements.txt 要求 pytest>=8.0）。",
    "denied": "没有写入：写 ../outside.txt 的请求被用户拒绝（Permission denied by user）。",
    "stop_hook": "测试框架是 pytest，版本要求 >=8.0。",
}
PARENT_ANSWER = {
    "answers": "这个项目用 pytest（>=8.0）。",
    "denied": "子任务没有写入：权限询问被拒绝，../outside.txt 没有创建。",
    "turn_limit": "子任务 30 轮内没有给出结论；我需要换一种方式再查。",
    "stop_hook": "这个项目用 pytest（>=8.0）。",
}
BLOCK = ToolUseBlock(id="toolu_001", **CHILD_FIRST)   # execute_tool 块单独执行的那个工具请求


def reply(*, system, messages, **request):
    turn = sum(message["role"] == "assistant" for message in messages)
    if system == SUB_SYSTEM:             # 子 agent
        if scenario == "turn_limit":     # 每一轮都只要工具，从不给最终答案
            return [tool("read_file", path="requirements.txt")]
        if turn == 0:
            return [CHILD_FIRST]
        if scenario == "stop_hook" and turn == 1:
            return []                    # 没有文字就停下：Stop hook 会要求补一句总结
        return CHILD_ANSWER[scenario]
    if turn == 0:                        # 父 agent：先派一个子任务，再根据它交回的文字作答
        return ["我派一个子任务去查。", tool("task", prompt=PROMPT)]
    return PARENT_ANSWER[scenario]


# 五个基础工具：路径都相对 WORKDIR 解析
def _path(path):
    return (WORKDIR / path).resolve()


def run_bash(command):
    try:
        r = subprocess.run(command, shell=True, cwd=WORKDIR,
                           capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "Error: Timeout (120s)"
    out = (r.stdout + r.stderr).strip()
    return out[:50000] if out else "(no output)"


def run_read(path, limit=None):
    lines = _path(path).read_text().splitlines()
    if limit and limit < len(lines):
        lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
    return "\n".join(lines)[:50000]


def run_write(path, content):
    target = _path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content)
    return f"Wrote {len(content)} bytes to {path}"


def run_edit(path, old_text, new_text):
    target = _path(path)
    text = target.read_text()
    if old_text not in text:
        return f"Error: text not found in {path}"
    target.write_text(text.replace(old_text, new_text, 1))
    return f"Edited {path}"


def run_glob(pattern):
    matches = sorted(match for match in _glob.glob(pattern, root_dir=WORKDIR, recursive=True)
                     if (WORKDIR / match).resolve().is_relative_to(WORKDIR))
    return "\n".join(matches) or "(no matches)"


# Hooks：父子循环共用同一张表
HOOKS = {"UserPromptSubmit": [], "PreToolUse": [], "PostToolUse": [], "Stop": []}
DENY_LIST = ["rm -rf /", "sudo", "shutdown", "reboot", "mkfs", "dd if="]
DESTRUCTIVE = ["rm ", "> /etc/", "chmod 777"]
TOOL_LOG = []


def register_hook(event, hook):
    HOOKS[event].append(hook)


def trigger_hooks(event, *args):
    """依次调用；第一个非空返回值生效（拦截或强制继续）。"""
    for hook in HOOKS[event]:
        result = hook(*args)
        if result:
            return result
    return None


def _ask(what):
    try:
        answer = input(f"  Allow {what}? [y/N] ")
    except EOFError:                     # 回答用完了（终端输入结束）：当作 n
        print()
        answer = "n"
    if answer.strip().lower() != "y":
        return "Permission denied by user"
    return None


def permission_hook(block):
    if block.name == "bash":
        command = block.input.get("command", "")
        if any(item in command for item in DENY_LIST):
            return "Permission denied by deny list"
        if any(item in command for item in DESTRUCTIVE):
            return _ask(f"bash: {command}")
    if block.name in ("read_file", "write_file", "edit_file"):
        path = block.input.get("path", "")
        if not _path(path).is_relative_to(WORKDIR):
            return _ask(f"{block.name} outside the workspace: {path}")
    return None


def log_hook(block):
    TOOL_LOG.append(block.name)


def large_output_hook(block, output):
    if len(str(output)) > 100000:
        print(f"  [hook] {block.name}: output is {len(str(output))} characters")


def summary_hook(messages):
    last = messages[-1]["content"]
    if not any(getattr(part, "type", None) == "text" and part.text.strip() for part in last):
        return "Please finish with a short summary of what you found."
    return None


def context_inject_hook(prompt):
    return None
