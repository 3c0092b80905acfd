import anthropic

client = anthropic.Anthropic()
TOOLS = [{"name": "read_file", "description": "Read a file.",
          "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                           "required": ["path"]}}]
SYSTEM = "You read files. Ask for one file at a time; when done, say how many you read."


def read_file(path):
    lines = [f"# {path}: line {n} of a source file, {'x' * 40}" for n in range(128)]
    return "\n".join(lines)[:8192]


def run_agent(task, max_calls):
    messages = [{"role": "user", "content": task}]
    for number in range(1, max_calls + 1):
        response = client.messages.create(model="bench-model", max_tokens=100, system=SYSTEM,
                                          messages=messages, tools=TOOLS)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason == "end_turn":
            return response.content[0].text
        results = [{"type": "tool_result", "tool_use_id": block.id,
                    "content": read_file(**block.input)}
                   for block in response.content if block.type == "tool_use"]
        messages.append({"role": "user", "content": results})
    return "call limit"


def keep_history(size, steps):
    """The per-step measure: a history of ``size`` messages shaped like run_agent's, then
    ``steps`` rounds of two statements that leave it as it is."""
    messages = [{"role": "user", "content": TASK}]
    while len(messages) < size:
        call = {"type": "tool_use", "id": f"toolu_{len(messages)}", "name": "read_file",
                "input": {"path": f"file_{len(messages)}.txt"}}
        messages.append({"role": "assistant", "content": [call]})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": call["id"],
             "content": read_file(**call["input"])}]})
    total = 0
    for number in range(steps):
        total += number
    return total
