# A model that never stops asking for the same tool.


def model(messages):
    return {"stop_reason": "tool_use", "content": [
        {"type": "tool_use", "id": f"t{len(messages)}", "name": "read_file",
         "input": {"path": "a.txt"}}]}


def run_tool(block):
    return "alpha"
