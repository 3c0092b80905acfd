from pathlib import Path
from types import SimpleNamespace
from uuid import UUID

from anthropic import Anthropic

# 教学替身：SDK 和工作目录里的文件由 lesson.toml 的 [standins] 提供；
# 这里补上源码用到的 uuid、MODEL、工具表，再编排模型每一轮的回答。
_serial = [0]


def _uuid4():
    """代替 uuid.uuid4()：按顺序编号，每次运行得到同样的 chain_id。"""
    _serial[0] += 1
    return UUID(f"00000000-0000-4000-8000-{_serial[0]:012d}")


uuid = SimpleNamespace(uuid4=_uuid4)     # 源码里的 import uuid 由这里提供

client = Anthropic()
MODEL = "sonnet"
SUBAGENT_SYSTEM = "You are a subagent. Complete the task, then return a short summary."


def read_file(path):
    if not Path(path).is_file():
        return f"Error: {path} not found"
    return Path(path).read_text()


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


# 模型每一轮的回答：一段文字，或一个 tool_use 块（id 由替身按顺序编号）
def tool(name, **args):
    return [{"type": "tool_use", "name": name, "input": args}]


def reply(*, model, messages, **request):
    level = CHAIN.index(messages[0]["content"])
    turn = sum(message["role"] == "assistant" for message in messages)
    line = "  " * level + f"[{model}] 第 {turn + 1} 次请求"
    print(line + (f"：{messages[0]['content']}" if turn == 0 else ""))
    leaf = level == len(CHAIN) - 1
    if turn == 0 and leaf:
        return tool("read_file", path="requirements.txt")
    if turn == 0:
        task = {"description": "派子任务", "prompt": CHAIN[level + 1]}
        if level + 1 == len(CHAIN) - 1:
            task["model"] = "haiku"      # 只读文件的那一层换用便宜的模型
        return tool("task", **task)
    found = messages[-1]["content"][0]["content"]
    if leaf:
        return f"测试框架：pytest（{found.strip()}）"
    return f"第 {level} 层汇总：{found}"
