"""Tool calls made while the modules run (a `__main__` REPL fed by `[standins] input`, the
module-level code of a `symbols = ["*"]` block) are recorded: each stand-in model call looks
the `[agent] tools` names up again, so the handlers are observed once the module defined
them (runtime/agent/capture.py `Capture._resolve_early`)."""

import pytest

from loopstep.runtime.recorder import record

try:
    from .test_standins_runs import write
except ImportError:
    from test_standins_runs import write

CODE = '''from anthropic import Anthropic

client = Anthropic()


def shout(text):
    return text.upper()


HANDLERS = {"shout": lambda **kw: shout(kw["text"])}


def turn(messages):
    reply = client.messages.create(model="m", max_tokens=100, messages=messages)
    messages.append({"role": "assistant", "content": reply.content})
    for block in reply.content:
        if block.type == "tool_use":
            return HANDLERS[block.name](**block.input)
    return reply.content[0].text


if __name__ == "__main__":
    while True:
        try:
            query = input("> ")
        except EOFError:
            break
        print(turn([{"role": "user", "content": query}]))
'''
SETUP = '''def reply(*, messages, **request):
    text = messages[-1]["content"]
    if text.startswith("!"):
        return {"content": [{"type": "tool_use", "name": "shout", "input": {"text": text[1:]}}]}
    return "plain " + text
'''
STANDINS = '''[standins]
modules = ["anthropic"]
model = "reply"
input = ["!hi", "there", "!bye"]

[agent]
tools = ["HANDLERS"]
'''


@pytest.fixture
def lessons(tmp_path):
    root = tmp_path / "lessons"
    write(root, "repl_tools", CODE, SETUP, symbol="turn", extra=STANDINS)
    write(root, "repl_whole", CODE, SETUP, symbol="turn",
          extra=STANDINS.replace("[agent]", '[[blocks]]\nid = "file"\nsymbols = ["*"]\n'
                                 'source = "repl_whole/code.py"\npresets = ["normal"]\n\n'
                                 "[agent]"))
    return [root]


def test_a_repls_tool_calls_are_recorded_while_the_module_runs(lessons):
    trace = record("repl_tools", "turn", "normal", roots=lessons)
    assert trace["status"] == "finished"
    assert trace["stdout"] == "> !hi\nHI\n> there\nplain there\n> !bye\nBYE\n> "
    agent = trace["agent"]
    assert len(agent["calls"]) == 3
    assert [(t["name"], t["input"], t["result"]) for t in agent["tools"]] == \
        [("shout", {"text": "hi"}, "HI"), ("shout", {"text": "bye"}, "BYE")]
    # each tool call comes after the model call that asked for it
    assert agent["calls"][0]["step"] <= agent["tools"][0]["step"] <= agent["calls"][1]["step"]


def test_the_whole_file_block_records_its_module_level_tool_calls(lessons):
    trace = record("repl_whole", "file", "normal", roots=lessons)
    assert trace["status"] == "finished"
    names = [t["name"] for t in trace["agent"]["tools"]]
    assert names == ["shout", "shout"]
    tool_steps = [trace["steps"][t["step"]] for t in trace["agent"]["tools"]]
    assert {s["fn"] for s in tool_steps} <= {"<module>", "turn", "<lambda>", "shout"}


@pytest.mark.parametrize("block", [("repl_tools", "turn"), ("repl_whole", "file")])
def test_a_tool_call_the_module_makes_is_forked(lessons, block):
    # the REPL calls the tools while the module runs: the fork is installed as soon as
    # the handlers are found (at the stand-in model call before), not after the module
    forked = record(*block, "normal", roots=lessons, fork={"call": "tool:1", "value": "改"})
    assert forked["fork"] == {"call": "tool:1", "applied": True}
    assert forked["stdout"] == "> !hi\n改\n> there\nplain there\n> !bye\nBYE\n> "
    assert [t["result"] for t in forked["agent"]["tools"]] == ["改", "BYE"]
    later = record(*block, "normal", roots=lessons, fork={"call": "tool:2", "value": "后"})
    assert later["fork"]["applied"] and later["stdout"].endswith("> !bye\n后\n> ")


def test_a_model_call_the_module_makes_is_forked(lessons):
    value = {"content": [{"type": "text", "text": "答"}], "stop_reason": "end_turn"}
    forked = record("repl_tools", "turn", "normal", roots=lessons,
                    fork={"call": "model:2", "value": value})
    assert forked["fork"]["applied"] and "> there\n答\n" in forked["stdout"]
