# The notes the tool reads, and the model's scripted answers.
NOTES = {"todo.txt": "buy milk\nfix bug\n"}


def reply(messages, **request):
    if len(messages) == 1:
        return {"content": [{"type": "tool_use", "name": "read_note",
                             "input": {"name": "todo.txt"}}]}
    return {"content": [{"type": "text", "text": "todo.txt: buy milk, fix bug."}]}
