def agent_loop(task):
    messages = [{"role": "user", "content": task}]
    while True:
        response = model(messages)
        messages.append({"role": "assistant", "content": response["content"]})
        if response["stop_reason"] != "tool_use":
            return response["content"][0]["text"]
        results = []
        for block in response["content"]:
            if block["type"] == "tool_use":
                output = run_tool(block)
                results.append({"type": "tool_result", "tool_use_id": block["id"],
                                "content": output})
        messages.append({"role": "user", "content": results})


def chatter():
    n = 0
    while True:
        n += 1
        print("line", n)
