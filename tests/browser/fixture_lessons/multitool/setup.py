# A scripted model that asks for several tools in one response, and the tools.
FILES = {"a.txt": "alpha", "b.txt": "beta", "c.txt": "gamma"}


def model(messages):
    if len(messages) == 1:
        return {"stop_reason": "tool_use", "content": [
            {"type": "text", "text": "读三个文件。"},
            {"type": "tool_use", "id": "read_a", "name": "read_file", "input": {"path": "a.txt"}},
            {"type": "tool_use", "id": "read_b", "name": "read_file", "input": {"path": "b.txt"}},
            {"type": "tool_use", "id": "count_c", "name": "count", "input": {"path": "c.txt"}}]}
    return {"stop_reason": "end_turn", "content": [{"type": "text", "text": "alpha beta 5"}]}


def read_file(path):
    return FILES[path]


def count(path):
    return str(len(FILES[path]))


TOOLS = {"read_file": read_file, "count": count}


def run_tool(block):
    return TOOLS[block["name"]](**block["input"])
