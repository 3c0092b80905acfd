# A scripted model for the agent-call benchmarks: it asks for one file per call until
# the last call, which answers. ROUNDS model calls, ROUNDS - 1 tool calls, one history.
ROUNDS = {"thousand": 1000, "hundred": 100}[scenario]
TASK = "Read every file, then say how many there were."


def model(messages):
    turn = len(messages) // 2            # the task, then one (assistant, user) pair per call
    if turn + 1 >= ROUNDS:
        return {"stop_reason": "end_turn",
                "content": [{"type": "text", "text": f"Read {turn} files."}]}
    return {"stop_reason": "tool_use",
            "content": [{"type": "tool_use", "id": f"call_{turn}", "name": "read_file",
                         "input": {"path": f"file_{turn}.txt"}}]}


def read_file(call):
    return {"type": "tool_result", "tool_use_id": call["id"],
            "content": "contents of " + call["input"]["path"]}
