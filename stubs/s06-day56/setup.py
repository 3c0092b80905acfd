from anthropic.types import TextBlock, ToolUseBlock

# 教学替身：SDK、subprocess 和工作目录由 lesson.toml 的 [standins] 提供（工作目录里有
# pyproject.toml 和 tests/）；这里只编排模型每一轮的回答，外加 pytest 这条命令的输出。
QUESTION = {
    "investigate": "这个项目用什么测试框架？测试怎么跑？帮我确认一下，待会儿改完代码我要跑。",
    "slugify": "用 task 派一个子任务：在 s06_subagent/example/ 下创建 string_tools.py，"
               "实现 slugify(text: str) -> str。完成后你亲自验证它可用。",
    "dangerous": "派一个子任务把工作区清空，从头再来。",
    "one-level": "派一个子任务，让它再派一个孙 Agent 去查测试框架。",
    "turn-limit": "派一个子任务把所有测试文件找一遍。",
    "no-summary": "派一个子任务看一眼 pyproject.toml。",
}[scenario]
PROMPT = {
    "investigate": "查清这个项目的测试框架和运行方式：看 pyproject.toml、tests/ 里的 conftest "
                   "和一个样例测试，再空跑一次收集。用三行汇报结论。",
    "slugify": "在 s06_subagent/example/ 下创建 string_tools.py，实现 slugify(text: str) -> str："
               "中文“苦猿”转成 ku-yuan，其余转小写，非字母数字变成连字符。写完自测一次。",
    "dangerous": "执行 rm -rf / 清空工作区，然后汇报。",
    "one-level": "用 task 工具再派一个子 Agent 去查测试框架。",
    "turn-limit": "把所有测试文件找一遍。",
    "no-summary": "看一眼 pyproject.toml。",
}[scenario]
STRING_TOOLS = '''import re
import unicodedata

PINYIN = {"苦": "ku", "猿": "yuan"}


def slugify(text: str) -> str:
    text = "".join(f" {PINYIN[ch]} " if ch in PINYIN else ch for ch in text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
'''
VERIFY = ("python -c \"from s06_subagent.example.string_tools import slugify; "
          "print(slugify('Hello, 苦猿 World! 56'))\"")
SELF_TEST = ("python -c \"from s06_subagent.example.string_tools import slugify; "
             "assert slugify('Hello, 苦猿 World! 56') == 'hello-ku-yuan-world-56'\"")
CONCLUSION = ("该项目使用 pytest 作为测试框架。\n"
              "测试位于 tests/ 目录，直接运行 python -m pytest 即可。\n"
              "conftest.py 提供了公共 fixtures。")


def tool(name, **args):
    return {"type": "tool_use", "name": name, "input": args}


# 子 Agent 每一轮的回答（最后一项是它的结论）
CHILD = {
    "investigate": [[tool("glob", pattern="**/test*")], [tool("read_file", path="pyproject.toml")],
                    [tool("read_file", path="tests/conftest.py")],
                    [tool("read_file", path="tests/test_agent.py")],
                    [tool("bash", command="python -m pytest --collect-only -q")], CONCLUSION],
    "slugify": [[tool("write_file", path="s06_subagent/example/string_tools.py", content=STRING_TOOLS)],
                [tool("bash", command=SELF_TEST)],
                "已创建 s06_subagent/example/string_tools.py，slugify 自测通过。"],
    "dangerous": [[tool("bash", command="rm -rf /")],
                  "没有执行：rm -rf / 被权限门禁拒绝（deny list），工作区没有改动。"],
    "one-level": [[tool("task", prompt="查一下测试框架。")],
                  "我没有 task 工具（Unknown tool: task），只能自己查：这个项目用 pytest。"],
    "no-summary": [[tool("read_file", path="pyproject.toml")], []],
}
# 父 Agent：先派子任务，slugify 再亲自验证一次，最后作答
PARENT = {
    "investigate": "pytest，直接 python -m pytest 跑，conftest 里有 fixtures。",
    "slugify": "子 Agent 写的 slugify 在父循环里验证通过。",
    "dangerous": "子任务的 rm -rf / 被门禁拦下，工作区没动。",
    "one-level": "子 Agent 不能再派孙 Agent，它自己查到了：pytest。",
    "turn-limit": "子任务 30 轮内没有结论，我换个问法再派一次。",
    "no-summary": "子任务没有交回文字，只能看到 (no summary)。",
}[scenario]
LAST_REPLY = {   # extract_text 块：子 Agent 最后一轮回复的 content
    "investigate": [TextBlock(text=CONCLUSION)],
    "slugify": [TextBlock(text="已创建 string_tools.py。"), TextBlock(text="slugify 自测通过。")],
    "dangerous": [TextBlock(text=CHILD["dangerous"][-1])],
    "one-level": [ToolUseBlock(id="toolu_001", name="task", input={"prompt": "查一下测试框架。"})],
    "turn-limit": "Subagent stopped after 30 turns without a final answer.",
    "no-summary": [],
}[scenario]


def reply(*, system, messages, **request):
    turn = sum(message["role"] == "assistant" for message in messages)
    if system.startswith("You are a subagent"):
        if scenario == "turn-limit":      # 每一轮都要工具，从不停下
            return [tool("glob", pattern="tests/*.py")]
        return CHILD[scenario][turn]
    if turn == 0:
        return ["我派一个子任务去办。", tool("task", prompt=PROMPT)]
    if scenario == "slugify" and turn == 1:
        return [tool("bash", command=VERIFY)]
    return PARENT


def run_command(command):
    """替身 shell 没有 pytest：收集命令的输出在这里给出。"""
    if "pytest" in command:
        return "tests/test_agent.py::test_loop_stops\ntests/test_agent.py::test_tool_result\n" \
               "tests/test_tools.py::test_glob\n\n3 tests collected in 0.42s\n"
    return 127, "", f"{command.split()[0]}: command not found\n"
