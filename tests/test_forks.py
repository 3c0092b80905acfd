"""Forks: a run again with one model or tool call answering a given value (runtime/questions/forks.py)."""

import json

import pytest

from loopstep.runtime import cli
from loopstep.runtime.catalog.lessons import CUSTOM, load_lesson
from loopstep.runtime.questions.forks import ForkError
from loopstep.runtime.recorder import record

S06 = load_lesson("s06")
CHANGED = {"stop_reason": "end_turn", "content": [{"type": "text", "text": "改答"}]}


def counted_setup():
    """The s06 normal setup whose model stub and tool stub print each time they run."""
    text = S06.setup_text("normal")
    for head in ("def ask(history,restricted):\n", "def execute_hooked(call,restricted,approve,hooks):\n"):
        assert text.count(head) == 1
        name = head[4:head.index("(")]
        text = text.replace(head, f'{head}    print("ran {name}")\n')
    return text


def run(fork=None, block="run_subagent", **options):
    return record("s06", block, CUSTOM, setup=counted_setup(), fork=fork, **options)


def responses(trace):
    agent = trace["agent"]
    return [agent["messages"][call["response"]] for call in agent["calls"]]


def test_a_forked_model_call_answers_the_value_and_the_stub_is_not_called_for_it():
    original = run()
    forked = run({"call": "model:2", "value": CHANGED})
    assert original["stdout"].count("ran ask") == 3 and len(original["agent"]["calls"]) == 3
    assert forked["stdout"].count("ran ask") == 1          # call 1 only; call 2 answered
    assert len(forked["agent"]["calls"]) == 2
    assert responses(forked)[0] == responses(original)[0]
    assert responses(forked)[1] == ["assistant", ["改答"]]
    assert forked["agent"]["calls"][1]["stop_reason"] == "end_turn"
    assert forked["fork"] == {"call": "model:2", "applied": True}
    assert "改答" in json.dumps(forked["result"], ensure_ascii=False)
    assert original["result"] != forked["result"]
    # the same steps up to the forked call
    at = forked["agent"]["calls"][1]["step"]
    assert forked["steps"][:at + 1] == original["steps"][:at + 1]


def test_a_later_model_call_forked_runs_the_earlier_ones():
    forked = run({"call": "model:3", "value": CHANGED})
    assert forked["stdout"].count("ran ask") == 2
    assert responses(forked)[2] == ["assistant", ["改答"]]


def test_a_forked_tool_call_answers_the_value_through_every_reference():
    # s06 reaches execute_hooked through a SimpleNamespace made by the setup
    value = {"result": {"type": "tool_result", "tool_use_id": "child_0", "content": "改过的结果",
                        "is_error": False}, "warnings": []}
    original = run()
    forked = run({"call": "tool:1", "value": value})
    assert original["stdout"].count("ran execute_hooked") == 2
    assert forked["stdout"].count("ran execute_hooked") == 1
    assert [t["result"] for t in forked["agent"]["tools"]] == [
        "改过的结果", original["agent"]["tools"][1]["result"]]
    assert forked["stdout"].count("ran ask") == 3


def test_a_preset_run_forks_too():
    forked = record("s06", "run_subagent", "normal", fork={"call": "model:2", "value": CHANGED})
    assert len(forked["agent"]["calls"]) == 2 and forked["fork"]["applied"]


def test_a_call_never_made_is_reported_not_applied():
    forked = run({"call": "model:9", "value": CHANGED})
    assert forked["fork"] == {"call": "model:9", "applied": False}
    assert forked["stdout"].count("ran ask") == 3


@pytest.mark.parametrize("fork, reason", [
    ({"call": "model:2", "value": [CHANGED]}, "not a list"),
    ({"call": "model:2", "value": {"content": 3}}, "not a number"),
    ({"call": "model:2", "value": {"content": [{"text": "no type"}]}}, '"type"'),
    ({"call": "model:0", "value": CHANGED}, "model:K or tool:K"),
    ({"call": "answer:1", "value": CHANGED}, "model:K or tool:K"),
    ({"call": "model:1"}, "a fork is"),
])
def test_a_fork_the_code_cannot_use_is_refused_before_running(fork, reason):
    with pytest.raises(ForkError, match=reason):
        run(fork)


def test_a_closure_cannot_be_forked_and_says_so():
    setup = counted_setup() + (
        "_ask = ask\n"
        "def _make():\n"
        "    seen = []\n"
        "    def ask(history, restricted):\n"
        "        seen.append(1)\n"
        "        return _ask(history, restricted)\n"
        "    return ask\n"
        "ask = _make()\n")
    assert record("s06", "run_subagent", CUSTOM, setup=setup)["stdout"].count("ran ask") == 3
    with pytest.raises(ForkError, match="ask is a closure"):
        record("s06", "run_subagent", CUSTOM, setup=setup, fork={"call": "model:1", "value": CHANGED})


def test_a_block_that_makes_no_call_reports_the_fork_not_applied():
    forked = record("s06", "child_tools", "normal", fork={"call": "model:1", "value": CHANGED})
    assert forked["fork"] == {"call": "model:1", "applied": False} and "agent" not in forked


def test_a_stand_in_client_builds_its_sdk_object_from_the_value():
    original = record("agent-whole", "agent_loop", "reads")
    value = {"content": [{"type": "text", "text": "不用读了"}]}
    forked = record("agent-whole", "agent_loop", "reads", fork={"call": "model:1", "value": value})
    assert len(original["agent"]["calls"]) == 2 and len(forked["agent"]["calls"]) == 1
    assert responses(forked) == [["assistant", ["不用读了"]]]
    assert forked["agent"]["calls"][0]["stop_reason"] == "end_turn"   # filled in as the SDK does
    assert "回答： 不用读了" in forked["stdout"]
    assert forked["status"] == "finished"


def test_the_dispatcher_is_not_in_the_stacks_of_the_steps_it_leads_to():
    # the task tool (a handler table's lambda) runs the displayed run_subagent: forking a
    # later tool call sends the task call through the dispatcher too
    original = record("agent-whole", "loop", "delegates")
    forked = record("agent-whole", "loop", "delegates", fork={"call": "tool:3", "value": "x"})
    assert forked["fork"]["applied"]
    assert forked["stacks"] == original["stacks"]
    at = forked["agent"]["tools"][2]["ret"]
    assert forked["steps"][:at] == original["steps"][:at]
    assert forked["steps"] != original["steps"]


def test_a_tool_of_a_handler_table_forks():
    forked = record("agent-whole", "agent_loop", "reads",
                    fork={"call": "tool:1", "value": "pytest==1.0"})
    assert forked["fork"]["applied"]
    assert forked["agent"]["tools"][0]["result"] == "pytest==1.0"


def test_the_dispatcher_passes_every_kind_of_parameter_and_is_undone():
    from types import SimpleNamespace

    from loopstep.runtime.agent.spec import AgentSpec
    from loopstep.runtime.questions.forks import Fork

    def tool(a, b=2, /, c=3, *rest, d, e=5, **more):
        return [a, b, c, rest, d, e, more]

    original = tool.__code__
    capture = SimpleNamespace(spec=AgentSpec((), ("tool",)), model={}, tools={original: "tool"}, gates={},
                              pending={}, calls=[], tool_calls=[])
    fork = Fork.parse({"call": "tool:1", "value": "forked"})
    codes = fork.install(capture, {"tool": tool})
    assert tool.__code__ is not original and codes == {tool.__code__}
    assert capture.tools == {tool.__code__: "tool"}
    assert tool(1, d=4) == [1, 2, 3, (), 4, 5, {}]     # not the forked call: runs as before
    assert tool(1, 7, 8, 9, d=4, e=6, f=0) == [1, 7, 8, (9,), 4, 6, {"f": 0}]
    fork.uninstall()
    assert tool.__code__ is original


def test_cli_fork(tmp_path, capsys):
    path = tmp_path / "answer.json"
    path.write_text(json.dumps(CHANGED, ensure_ascii=False), encoding="utf-8")
    assert cli.main(["trace", "s06/run_subagent", "--fork", f"model:2={path}", "--json"]) == 0
    trace = json.loads(capsys.readouterr().out)
    assert len(trace["agent"]["calls"]) == 2 and trace["fork"]["applied"]
    assert cli.main(["trace", "s06/run_subagent", "--fork", f"model:2={path}"]) == 0
    assert "fork: model:2 answered" in capsys.readouterr().out
    path.write_text("{not json", encoding="utf-8")
    assert cli.main(["trace", "s06/run_subagent", "--fork", f"model:2={path}"]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert cli.main(["trace", "s06/run_subagent", "--fork", "model:2"]) == 2


def test_a_tool_call_forked_with_what_it_returned_reproduces_the_run():
    original = run()
    for k, tool in enumerate(original["agent"]["tools"], 1):
        assert not tool["cut"] and tool["returned"]["result"]["content"] == tool["result"]
        forked = run({"call": f"tool:{k}", "value": tool["returned"]})
        assert forked["fork"] == {"call": f"tool:{k}", "applied": True}
        assert forked["stdout"].count("ran execute_hooked") == original["stdout"].count(
            "ran execute_hooked") - 1
        assert forked["result"] == original["result"]
        # the same steps; only the stub's own print is missing from the output
        without_out = lambda steps: [{**s, "out": None} for s in steps]  # noqa: E731
        assert without_out(forked["steps"]) == without_out(original["steps"])
        assert forked["stdout"].replace("ran execute_hooked\n", "") == \
            original["stdout"].replace("ran execute_hooked\n", "")
