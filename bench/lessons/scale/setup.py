# A scripted model for the runs-at-scale benchmark: one file per call until the last call,
# which answers. ROUNDS model calls, ROUNDS - 1 tool calls of 8 KB each, one history.
ROUNDS = int(scenario[1:])          # "c300" → 300
TASK = "Read every file, then say how many there were."


def reply(messages, **request):
    turn = len(messages) // 2            # the task, then one (assistant, user) pair per call
    if turn + 1 >= ROUNDS:
        return {"content": [{"type": "text", "text": f"Read {turn} files."}]}
    return {"content": [{"type": "tool_use", "name": "read_file",
                         "input": {"path": f"file_{turn}.txt"}}]}
STEPS = 1000                        # keep_history's rounds beside the history
