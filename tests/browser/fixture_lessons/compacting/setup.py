# A scripted model that asks for one tool four times, then answers.
CALLS = []


def model(messages):
    turn = len(CALLS)
    CALLS.append(len(messages))
    if turn < 4:
        return {"stop_reason": "tool_use", "content": [
            {"type": "text", "text": f"step {turn}"},
            {"type": "tool_use", "id": f"t{turn}", "name": "echo", "input": {"n": turn}}]}
    return {"stop_reason": "end_turn", "content": [{"type": "text", "text": "done"}]}


def run_tool(block):
    return f"echo {block['input']['n']}"
