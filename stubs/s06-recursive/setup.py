from types import SimpleNamespace
from uuid import UUID

# 教学替身：不导入 SDK，不联网；文件在内存里。
_serial = [0]


def _uuid4():
    """代替 uuid.uuid4()：按顺序编号，每次运行得到同样的 chain_id。"""
    _serial[0] += 1
    return UUID(f"00000000-0000-4000-8000-{_serial[0]:012d}")


uuid = SimpleNamespace(uuid4=_uuid4)     # 源码里的 import uuid 由这里提供

MODEL = "sonnet"
SUBAGENT_SYSTEM = "You are a subagent. Complete the task, then return a short summary."
FILES = {"requirements.txt": "pytest>=8.0\n"}


def read_file(path):
    if path not in FILES:
        return f"Error: {path} not found"
    return FILES[path]


BASE_TOOLS = [
    {"name": "read_file", "description": "Read file contents.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                      "required": ["path"]}},
]
TOOL_HANDLERS = {"read_file": read_file}

# 每一层的任务：最后一层读文件作答，上面每一层各派一个 task
DEPTH = {"depth0": 0, "depth1": 1, "depth2": 2}[scenario]
CHAIN = [
    "整理这个项目的测试约定，必要时派子任务。",
    "查清这个项目用什么测试框架，必要时派子任务。",
    "读取 requirements.txt，返回测试框架的名称和版本。",
][2 - DEPTH:]


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


def _reply(level, turn, messages):
    leaf = level == len(CHAIN) - 1
    if turn == 0 and leaf:
        return Message("tool_use", [ToolUseBlock(f"toolu_{level}_1", "read_file",
                                                 {"path": "requirements.txt"})])
    if turn == 0:
        task = {"description": "派子任务", "prompt": CHAIN[level + 1]}
        if level + 1 == len(CHAIN) - 1:
            task["model"] = "haiku"      # 只读文件的那一层换用便宜的模型
        return Message("tool_use", [ToolUseBlock(f"toolu_{level}_1", "task", task)])
    found = messages[-1]["content"][0]["content"]
    if leaf:
        return Message("end_turn", [TextBlock(f"测试框架：pytest（{found.strip()}）")])
    return Message("end_turn", [TextBlock(f"第 {level} 层汇总：{found}")])


class _Messages:
    def create(self, *, model, system, messages, tools, max_tokens):
        level = CHAIN.index(messages[0]["content"])
        turn = sum(1 for message in messages if message["role"] == "assistant")
        line = "  " * level + f"[{model}] 第 {turn + 1} 次请求"
        print(line + (f"：{messages[0]['content']}" if turn == 0 else ""))
        return _reply(level, turn, messages)


class Anthropic:
    def __init__(self, **options):
        self.messages = _Messages()


client = Anthropic()
