import glob as _glob
import shutil
import tempfile
from pathlib import Path

# 教学替身：不导入 SDK，不联网。文件工具是真实的，但只作用于这里新建的临时工作区。
ROOT = Path(tempfile.mkdtemp(prefix="loopstep-")).resolve()
WORKDIR = ROOT / "workspace"
WORKDIR.mkdir()
OUTSIDE = ROOT / "outside.txt"          # 工作区之外：denied 预设想写的位置
(WORKDIR / "requirements.txt").write_text("pytest>=8.0\n")

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

ANSWERS = ["n"]                          # 读者对权限询问的回答


def input(prompt=""):
    answer = ANSWERS.pop(0) if ANSWERS else "n"
    print(prompt + answer)
    return answer


# 像 SDK 那样的响应对象：Message.stop_reason / .content，内容块有 .type .text .name .input .id
class TextBlock:
    def __init__(self, text):
        self.type, self.text = "text", text

    def __repr__(self):
        return f"TextBlock(type='text', text={self.text!r})"


class ToolUseBlock:
    def __init__(self, id, name, input):
        self.type, self.id, self.name, self.input = "tool_use", id, name, input

    def __repr__(self):
        return f"ToolUseBlock(id={self.id!r}, name={self.name!r}, input={self.input!r})"


class Message:
    def __init__(self, stop_reason, content):
        self.role, self.stop_reason, self.content = "assistant", stop_reason, content

    def __repr__(self):
        return f"Message(stop_reason={self.stop_reason!r}, content={self.content!r})"


def _text(text):
    return Message("end_turn", [TextBlock(text)])


def _tool(id, name, **args):
    return Message("tool_use", [ToolUseBlock(id, name, args)])


CHILD_FIRST = {
    "denied": _tool("toolu_sub_01", "write_file", path="../outside.txt", content="hello\n"),
}.get(scenario, _tool("toolu_sub_01", "read_file", path="requirements.txt"))
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
BLOCK = CHILD_FIRST.content[0]           # execute_tool 块单独执行的那个工具请求


def _child(turn):
    if scenario == "turn_limit":         # 每一轮都只要工具，从不给最终答案
        return _tool(f"toolu_sub_{turn + 1:02d}", "read_file", path="requirements.txt")
    if turn == 0:
        return CHILD_FIRST
    if scenario == "stop_hook" and turn == 1:
        return Message("end_turn", [])   # 没有文字就停下：Stop hook 会要求补一句总结
    return _text(CHILD_ANSWER[scenario])


def _parent(turn):
    if turn == 0:
        return Message("tool_use", [TextBlock("我派一个子任务去查。"),
                                    ToolUseBlock("toolu_01", "task", {"prompt": PROMPT})])
    return _text(PARENT_ANSWER[scenario])


class _Messages:
    def create(self, *, model, system, messages, tools, max_tokens):
        turn = sum(1 for message in messages if message["role"] == "assistant")
        return _child(turn) if system == SUB_SYSTEM else _parent(turn)


class Anthropic:
    def __init__(self, base_url=None, **options):
        self.messages = _Messages()


client = Anthropic(base_url=None)


# 五个基础工具：路径都相对 WORKDIR 解析
def _path(path):
    return (WORKDIR / path).resolve()


def run_bash(command):
    return "Error: 本课的浏览器环境里没有 shell，bash 不可用。"


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
    if input(f"  Allow {what}? [y/N] ").strip().lower() != "y":
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


def close_workspace():
    """入口结束时报告工作区外是否多了文件，然后删除临时目录。"""
    print("工作区外的 outside.txt 存在：", OUTSIDE.exists())
    shutil.rmtree(ROOT, ignore_errors=True)
