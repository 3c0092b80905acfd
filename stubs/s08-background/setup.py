# 教学替身：SDK、subprocess 和工作目录都由 lesson.toml 的 [standins] 提供；
# 这里只编排模型每一轮的回答。命令里的 sleep 在替身 shell 里花的是虚拟时间：
# 有线程在跑时，一次模型调用算 1 秒，一条命令算 0.1 秒再加上它的 sleep。
QUESTION = "在后台跑一遍测试，同时告诉我这个项目是做什么的。"
COMMAND = {"notified": "sleep 0.5 && grep -c 'def test' tests/test_app.py"}.get(
    scenario, "sleep 5 && grep -c 'def test' tests/test_app.py")


def tool(name, **args):
    return {"type": "tool_use", "name": name, "input": args}


def heard(messages):
    """模型看到的后台结果（循环放进用户消息的 <background-results>）。"""
    for message in messages:
        if message["role"] != "user" or isinstance(message["content"], str):
            continue
        for block in message["content"]:
            if block.get("type") == "text" and block["text"].startswith("<background-results>"):
                return block["text"].splitlines()[1]
    return None


def reply(*, messages, **request):
    turn = sum(m["role"] == "assistant" for m in messages)
    if turn == 0:
        return ["测试要跑一会儿，我放到后台，先去读 README。", tool("background_run", command=COMMAND)]
    if turn == 1:
        return [tool("read_file", path="README.md")]
    result = heard(messages)
    if result is not None:
        return f"这是一个加法小工具（README）。后台测试跑完了：{result}。"
    return "这是一个加法小工具（README）。后台测试还没跑完，我现在还不能告诉你结果。"
