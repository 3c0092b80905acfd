def agent_loop(task):
    messages = [{"role": "user", "content": task}]
    while True:
        response = model(messages)
        messages.append({"role": "assistant", "content": response["content"]})
        if response["stop_reason"] != "tool_use":
            return response["content"][0]["text"]
        block = response["content"][-1]
        output = run_tool(block)
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": block["id"], "content": output}]})
        compact(messages)


def compact(messages):
    if len(messages) == 5:
        messages[2]["content"][0]["content"] = "[cleared]"
    if len(messages) == 7:
        messages[3] = {"role": "assistant", "content": [{"type": "text", "text": "(summary)"}]}
    if len(messages) == 9:
        del messages[5:7]
