# 教学替身：SDK、dotenv、subprocess、工作目录和环境变量都由 lesson.toml 的 [standins] 提供；
# 这里只编排模型每一轮的回答。
QUESTION = "这个项目用什么测试框架？"
PROMPT = "读 requirements.txt，说出测试框架和版本。"
COMMAND = {"dangerous": "sudo rm -rf /"}.get(scenario, "cat requirements.txt")


def tool(name, **args):
    return {"content": [{"type": "tool_use", "name": name, "input": args}]}


PARENT = {"delegates": tool("task", prompt=PROMPT),
          "reads": tool("read_file", path="requirements.txt"),
          "dangerous": tool("bash", command=COMMAND),
          "unknown_tool": tool("deploy", target="prod"),
          "turn_limit": tool("task", prompt="找出所有测试文件。")}[scenario]
CHILD = [tool("bash", command="ls"), tool("bash", command=COMMAND),
         "测试框架是 pytest（requirements.txt 要求 pytest>=8.0）。"]


def reply(*, system, messages, **request):
    turn = sum(m["role"] == "assistant" for m in messages)
    if system.startswith("You are a subagent"):
        return tool("bash", command="ls src") if scenario == "turn_limit" else CHILD[turn]
    return PARENT if turn == 0 else f"（{scenario}）我看过了：这个项目用 pytest。"
