import anthropic

client = anthropic.Anthropic()
SYSTEM = "You are a coding agent. Answer briefly."
TOOLS = [{"name": "read_note", "description": "Read a note.",
          "input_schema": {"type": "object", "properties": {"name": {"type": "string"}},
                           "required": ["name"]}}]


def read_note(name):
    return NOTES.get(name, "no such note")


TOOL_HANDLERS = {"read_note": read_note}


def agent_loop(messages):
    while True:
        response = client.messages.create(model="claude-test", system=SYSTEM,
                                          messages=messages, tools=TOOLS, max_tokens=1000)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output = TOOL_HANDLERS[block.name](**block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": output})
        messages.append({"role": "user", "content": results})
