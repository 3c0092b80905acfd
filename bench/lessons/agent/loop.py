def run_agent(task, max_calls):
    messages = [{"role": "user", "content": task}]
    for number in range(1, max_calls + 1):
        response = model(messages)
        blocks = response["content"]
        messages.append({"role": "assistant", "content": blocks})
        if response["stop_reason"] == "end_turn":
            return blocks[0]["text"]
        results = [read_file(block) for block in blocks if block["type"] == "tool_use"]
        messages.append({"role": "user", "content": results})
    return "call limit"
