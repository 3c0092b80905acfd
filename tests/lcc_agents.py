"""Small agent files in learn-claude-code's style, one per handler shape, and a run
captured elsewhere in its per-cycle trace format (docs/recordings.md, "Importing"), for
the replay tests (test_recorded_pairing.py, test_replay_tolerant.py)."""


import json

from loopstep.runtime.recording import learn_claude_code

CWD = "/home/ann/proj"
TOML = '''title.zh = "t"
title.en = "t"
summary.zh = "s"
summary.en = "s"
setup = "{id}/setup.py"
modules = ["{id}/agent.py"]

[standins]
modules = ["anthropic", "subprocess"]
model = "reply"
files = {{ "notes.txt" = "a\\nb\\nc\\n" }}

[[presets]]
name = "normal"
zh = "n"
en = "n"

[[blocks]]
symbol = "agent_loop"
source = "{id}/agent.py"
entry = """
history = [{{"role": "user", "content": "What is in this folder?"}}]
agent_loop(history)
print("answer:", history[-1]["content"][0].text)
"""

[agent]
tools = {tools}
'''

HEAD = '''import os
import subprocess
from functools import partial

from anthropic import Anthropic

WORKDIR = os.getcwd()
client = Anthropic()
SYSTEM = f"You are a coding agent at {WORKDIR}."
TOOLS = [
    {"name": "bash", "description": "Run a shell command.",
     "input_schema": {"type": "object", "properties": {"command": {"type": "string"}},
                      "required": ["command"]}},
    {"name": "read_file", "description": "Read a file.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"},
                                                       "limit": {"type": "integer"}},
                      "required": ["path"]}},
]


def run_bash(command: str) -> str:
    r = subprocess.run(command, shell=True, cwd=WORKDIR, capture_output=True, text=True)
    return (r.stdout + r.stderr).strip() or "(no output)"


def run_read(path: str, limit: int = None) -> str:
    lines = open(path).read().splitlines()
    return "\\n".join(lines[:limit] if limit else lines)
'''

LOOP = '''

def agent_loop(messages: list):
    while True:
        REFRESH
        response = client.messages.create(model="m", system=SYSTEM, messages=messages,
                                          tools=TOOLS, max_tokens=100)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output = CALL
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": output})
        messages.append({"role": "user", "content": results})
'''

TABLE = "TOOL_HANDLERS[block.name](**block.input)"
# shape: (the handlers' definitions, how the loop calls one, the [agent] tools name, a
# statement before each model call)
SHAPES = {
    "kwargs_lambdas": ('''
TOOL_HANDLERS = {
    "bash":      lambda **kw: run_bash(kw["command"]),
    "read_file": lambda **kw: run_read(kw["path"], kw.get("limit")),
}''', TABLE, "TOOL_HANDLERS", "pass"),
    "args_lambdas": ('''
TOOL_HANDLERS = {
    "bash":      lambda *a: run_bash(*a),
    "read_file": lambda *a: run_read(*a),
}''', "TOOL_HANDLERS[block.name](*block.input.values())", "TOOL_HANDLERS", "pass"),
    "bound_methods": ('''
class Tools:
    def __init__(self, root):
        self.root = root

    def bash(self, command):
        return run_bash(command)

    def read(self, path, limit=None):
        return run_read(path, limit)


TOOLBOX = Tools(WORKDIR)
TOOL_HANDLERS = {"bash": TOOLBOX.bash, "read_file": TOOLBOX.read}''', TABLE, "TOOL_HANDLERS",
                      "pass"),
    "callable_objects": ('''
class Bash:
    def __call__(self, command):
        return run_bash(command)


class Read:
    def __call__(self, path, limit=None):
        return run_read(path, limit)


TOOL_HANDLERS = {"bash": Bash(), "read_file": Read()}''', TABLE, "TOOL_HANDLERS", "pass"),
    "partials": ('''
def run_tool(kind, **args):
    return run_bash(args["command"]) if kind == "shell" else run_read(**args)


TOOL_HANDLERS = {"bash": partial(run_tool, "shell"), "read_file": partial(run_tool, "file")}''',
                 TABLE, "TOOL_HANDLERS", "pass"),
    "closures": ('''
def make_handlers(root):
    def bash(cmd):
        return run_bash(cmd) + ("" if root else "?")

    def read(args):
        return run_read(os.path.join(root, args["path"]))

    return {"bash": bash, "read_file": read}


TOOL_HANDLERS = make_handlers(WORKDIR)''',
                 'TOOL_HANDLERS[block.name](block.input["command"] if block.name == "bash" '
                 'else block.input)', "TOOL_HANDLERS", "pass"),
    "rebuilt_per_call": ('''
def make_handlers():
    return {"bash": lambda **kw: run_bash(kw["command"]),
            "read_file": lambda **kw: run_read(kw["path"])}


TOOL_HANDLERS = make_handlers()''', TABLE, "TOOL_HANDLERS",
                         "global TOOL_HANDLERS; TOOL_HANDLERS = make_handlers()"),
    "added_in_the_loop": ('''
TOOL_HANDLERS = {"bash": lambda **kw: run_bash(kw["command"])}''', TABLE, "TOOL_HANDLERS",
                          'TOOL_HANDLERS.setdefault("read_file", lambda **kw: run_read(kw["path"]))'),
    "plain_function": ("", 'run_bash(block.input["command"]) if block.name == "bash" '
                           'else run_read(**block.input)', ["run_bash", "run_read"], "pass"),
}
LS = ("total 16\ndrwxr-xr-x 2 ann ann 4096 Mar  1 10:00 .\n"
      "-rw-r--r-- 1 ann ann    6 Mar  1 10:00 notes.txt")


def write_lesson(root, shape, like=None):
    """The lesson ``shape`` (its handlers: ``SHAPES[like or shape]``) under ``root``."""
    handlers, call, tools, refresh = SHAPES[like or shape]
    folder = root / shape
    folder.mkdir(parents=True)
    (folder / "agent.py").write_text(HEAD + handlers + "\n" + LOOP.replace("CALL", call)
                                     .replace("REFRESH", refresh))
    (folder / "setup.py").write_text(
        "def reply(messages, **request):\n"
        "    return {'content': [{'type': 'text', 'text': 'scripted'}]}\n")
    (folder / "lesson.toml").write_text(TOML.format(
        id=shape, tools=json.dumps(tools if isinstance(tools, list) else [tools])))
    return shape


def use(ident, name, tool_input):
    return {"id": ident, "input": tool_input, "name": name, "type": "tool_use"}


def captured(ls_input=None, tools=None):
    """A run captured elsewhere: ``ls -la`` (an output the stand-in shell would not give),
    a read of a file by its absolute path in the recorded folder, the answer."""
    tools = tools or json.loads(json.dumps(TOOL_SCHEMAS))
    system = f"You are a coding agent at {CWD}."
    ls = {"command": "ls -la"}
    read = {"path": f"{CWD}/notes.txt"}
    question = {"role": "user", "content": "What is in this folder?"}
    turns = [([use("t1", "bash", ls)], "t1", LS, "bash", ls_input or ls),
             ([use("t2", "read_file", read)], "t2", "a\nb\nc", "read_file", read)]
    cycles, messages = [], [question]
    for content, ident, output, name, recorded_input in turns:
        cycles.append({"elapsed_ms": 100, "request": {
            "model": "m", "system": system, "messages": json.loads(json.dumps(messages)),
            "tools": tools, "max_tokens": 100},
            "response": {"id": "msg", "type": "message", "role": "assistant", "model": "m",
                         "content": content, "stop_reason": "tool_use",
                         "usage": {"input_tokens": 1, "output_tokens": 1}},
            "tool_executions": [{"name": name, "input": recorded_input, "output": output}]})
        messages += [{"role": "assistant", "content": content},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": ident,
                                                   "content": output}]}]
    cycles.append({"elapsed_ms": 100, "request": {
        "model": "m", "system": system, "messages": messages, "tools": tools,
        "max_tokens": 100},
        "response": {"id": "msg", "type": "message", "role": "assistant", "model": "m",
                     "content": [{"type": "text", "text": "notes.txt, 3 lines."}],
                     "stop_reason": "end_turn", "usage": {"input_tokens": 1, "output_tokens": 1}}})
    return {"version": "t", "model": "m", "cycles": cycles}


TOOL_SCHEMAS = [
    {"name": "bash", "description": "Run a shell command.",
     "input_schema": {"type": "object", "properties": {"command": {"type": "string"}},
                      "required": ["command"]}},
    {"name": "read_file", "description": "Read a file.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"},
                                                       "limit": {"type": "integer"}},
                      "required": ["path"]}},
]


def imported(trace=None):
    return learn_claude_code.convert(trace or captured(), "trace.json", CWD)
