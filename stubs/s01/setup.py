# 教学替身：模型与文件接口都是内存函数，不调用 SDK，不读磁盘。
QUESTION = "检查 main.py 与 expected.txt，说明 main.py 会输出什么；先不要运行。"
FILES = {"main.py": "print(6 * 7)\n", "expected.txt": "42\n"}
ANSWER = "main.py 打印 6 * 7，即 42，与 expected.txt 一致；尚未运行。"


def _read(number, path):
    return {"stop_reason": "tool_use",
            "content": [{"type": "tool_use", "id": f"call_{number}", "name": "read_file",
                         "input": {"path": path}}]}


def ask(messages):
    """按预设脚本回答第 number 次模型调用。"""
    number = sum(1 for message in messages if message["role"] == "assistant") + 1
    if scenario == "protocol_error":      # 说要用工具，却没有给出工具请求
        return {"stop_reason": "tool_use", "content": [{"type": "text", "text": "我先读取 main.py。"}]}
    if number == 1:
        return _read(number, "main.py")
    if scenario == "model_error":
        raise ConnectionError("网络中断")
    if scenario == "model_stopped":       # 输出预算用完，回答停在半句
        return {"stop_reason": "max_tokens", "content": [{"type": "text", "text": "main.py 会打印"}]}
    if number == 2:
        return _read(number, "expected.txt")
    if scenario == "call_limit":          # 一直要工具，从不作答
        return _read(number, "main.py")
    return {"stop_reason": "end_turn", "content": [{"type": "text", "text": ANSWER}]}


def execute(call):
    path = call["input"]["path"]
    return {"type": "tool_result", "tool_use_id": call["id"], "content": FILES[path].rstrip("\n")}
