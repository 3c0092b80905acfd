"""Every handler shape pairs with its recorded execution (runtime/recording/pairing.py):
the same captured run, in learn-claude-code's per-cycle format, replayed on agent files
whose handlers are ``lambda **kw`` entries of a table, ``*args`` lambdas, bound methods,
callable objects, ``functools.partial``s of one function, closures, a table built again
before each model call, and a plain function. A recorded command the stand-in shell would
answer otherwise (``ls -la``) is answered from the recording and never runs; a call the
recording holds otherwise stops at the tool call, in the trace and in the CLI (exit 3)."""

import json

import pytest

from lcc_agents import LS, SHAPES, use, captured, imported, write_lesson
from loopstep.runtime import cli
from loopstep.runtime.recorder import record


@pytest.fixture(scope="module")
def lessons(tmp_path_factory):
    root = tmp_path_factory.mktemp("pairing")
    for shape in SHAPES:
        write_lesson(root, shape)
    return root


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_handler_shape_is_answered_from_the_recording(lessons, shape):
    result = record(shape, "agent_loop", "normal", roots=[lessons], recording=imported())
    assert result["status"] == "finished", result["message"]
    assert result["stdout"] == "answer: notes.txt, 3 lines.\n"
    assert result["replay"]["made"] == 3 and result["replay"]["tool_outputs"] == 2
    tools = result["agent"]["tools"]
    assert len(tools) == 2 and all(t["recorded"] for t in tools)
    assert LS in [t["result"] for t in tools]   # ls -la: the recording's, never run here
    assert not any(t.get("stand_in") for t in tools)


@pytest.mark.parametrize("shape", ["kwargs_lambdas", "partials", "closures", "plain_function"])
def test_a_call_the_recording_holds_otherwise_stops_loudly_at_the_tool_call(lessons, shape):
    result = record(shape, "agent_loop", "normal", roots=[lessons],
                    recording=imported(captured(ls_input={"command": "ls"})))
    name = "run_bash" if shape == "plain_function" else "bash"
    sent = {"closures": '{"cmd": "ls -la"}'}.get(shape, '{"command": "ls -la"}')
    assert result["status"] == "error"
    assert result["message"] == f"tool call not in the recording at model call 1: {name}({sent})"
    divergence = result["replay"]["divergence"]
    assert divergence["call"] == 1 and divergence["path"] == f"tool:{name}"
    assert divergence["recorded"].startswith('bash({"command": "ls"}) → "total 16')
    assert result["replay"]["made"] == 1   # stopped at the tool call, not one call later


def test_the_cli_exits_3_at_an_unpaired_tool_call(lessons, tmp_path, capsys):
    path = tmp_path / "run.json"
    path.write_text(json.dumps(imported(captured(ls_input={"command": "ls"}))))
    code = cli.main(["trace", "kwargs_lambdas/agent_loop", "--lessons", str(lessons),
                     "--recording", str(path)])
    err = capsys.readouterr().err
    assert code == 3
    assert 'tool call not in the recording at model call 1: bash({"command": "ls -la"})' in err
    assert 'recorded: bash({"command": "ls"}) → "total 16' in err


def test_a_tool_that_runs_after_a_fork_is_marked_as_the_stand_ins(lessons):
    fork = {"call": "model:1", "value": {"content": [use("t9", "bash", {"command": "cat notes.txt"})],
                                         "stop_reason": "tool_use"}}
    result = record("kwargs_lambdas", "agent_loop", "normal", roots=[lessons],
                    recording=imported(), fork=fork)
    assert result["fork"]["applied"]
    bash = result["agent"]["tools"][0]
    assert bash["result"] == "a\nb\nc" and not bash["recorded"] and bash["stand_in"] is True
