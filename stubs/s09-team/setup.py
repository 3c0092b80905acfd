# 教学替身：SDK 和工作目录由 lesson.toml 的 [standins] 提供；这里只编排每个成员的模型回答。
# 有线程在跑时，一次模型调用算 1 秒虚拟时间，time.sleep 也走虚拟时钟：
# 谁在什么时刻读收件箱、谁在什么时刻寄信，每次运行都一样。
QUESTION = "alice 和 bob 先各自检查测试和文档，向我汇报；之后我再安排。"
FOLLOW_UP = "再加一个负数相加的测试。"


def tool(tool_name, **args):
    return {"type": "tool_use", "name": tool_name, "input": args}


LEAD = [
    ["我请两位队友分头检查。",
     tool("spawn_teammate", name="alice", role="tester", prompt="检查 tests/ 里的测试，向 lead 汇报。"),
     tool("spawn_teammate", name="bob", role="writer", prompt="检查 README.md，向 lead 汇报。")],
    [tool("read_inbox")],
    [tool("read_inbox")],
    *([[tool("send_message", to="alice", content=FOLLOW_UP)]] if scenario == "team" else
      [[tool("read_file", path="tests/test_app.py")],
       [tool("send_message", to="alice", content=FOLLOW_UP)]]),
    "alice 和 bob 都汇报过了；我已经请 alice 再加一个负数测试。",
]
ALICE = [
    [tool("send_message", to="lead", content="tests/test_app.py 有 2 个测试，都覆盖正数。")],
    "汇报完了，等领队的下一步。",
    [tool("send_message", to="lead", content="收到：负数测试我来加，test_negative。")],
    "负数测试的事已经回复领队。",
]
BOB = [
    [tool("send_message", to="lead", content="README.md 只有一句介绍，和代码一致。")],
    "汇报完了。",
]


def reply(*, system, messages, **request):
    turn = sum(m["role"] == "assistant" for m in messages)
    script = ALICE if system.startswith("You are alice") else (
        BOB if system.startswith("You are bob") else LEAD)
    return script[min(turn, len(script) - 1)]
