# Only the model's answers are scripted here: SDK, dotenv, subprocess, the working folder
# and the environment come from [standins] in lesson.toml.
import re

QUESTION = "Split parser.py's work into tasks and get going."


def tool(tool_name, **args):
    return {"content": [{"type": "tool_use", "name": tool_name, "input": args}]}


def task_ids(messages):
    """The ids the board gave back so far, oldest first: what the model has read."""
    found = []
    for m in messages:
        for part in m["content"] if isinstance(m["content"], list) else []:
            if isinstance(part, dict) and part.get("type") == "tool_result":
                found += [i for i in re.findall(r'"id": "(\w+)"', part["content"])
                          if i not in found]
    return found


def reply(*, system, messages, **request):
    turn = sum(m["role"] == "assistant" for m in messages)
    ids = task_ids(messages) + ["?", "?"]
    first, second = ids[0], ids[1]
    if scenario == "missing":
        steps = [tool("task_update", task_id="0badc0de", status="completed"),
                 tool("task_list"),
                 "The board is empty: there was no task 0badc0de."]
    else:
        steps = [tool("task_create", subject="Handle quoted commas in parse()"),
                 tool("task_create", subject="Test parse() on quoted input", blockedBy=[first])]
        if scenario == "blocked":
            steps += [tool("task_update", task_id=second, status="in_progress"),
                      tool("task_list"),
                      f"Task {second} waits for {first}; starting there first."]
        else:
            steps += [tool("task_update", task_id=first, status="in_progress"),
                      tool("bash", command="grep -n split parser.py"),
                      tool("task_update", task_id=first, status="completed"),
                      tool("task_list"),
                      f"{first} is done and {second} is unblocked."]
    return steps[min(turn, len(steps) - 1)]
