"""Whole runs with stand-ins (CPython): the bundled agent-whole lesson, a REPL fed by
``input``, an OpenAI-shaped lesson, and runs that leave nothing behind."""

import builtins
import json
import os
import subprocess as real_subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from sdk_programs import OPENAI_LOOP
from loopstep.runtime import cli, standins
from loopstep.runtime.catalog import custom
from loopstep.runtime.catalog.lessons import load_lesson
from loopstep.runtime.recorder import Output, record
from loopstep.runtime.trace.values import Folder
from loopstep.runtime.standins import SHOWN

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
REGEN = os.environ.get("LOOPSTEP_REGEN") == "1"
# (block, preset) runs of agent-whole held to golden traces, here and in Pyodide
RUNS = [("agent_loop", "delegates"), ("agent_loop", "dangerous"), ("agent_loop", "unknown_tool"),
        ("run_subagent", "turn_limit"), ("safe_path", "reads"),
        ("loop", "delegates"), ("whole", "delegates")]


def neutral(trace):
    return {k: v for k, v in trace.items() if k not in ("python", "backend")}


def check_golden(block, scenario, trace):
    path = GOLDEN / f"agent-whole_{block}_{scenario}.json"
    if REGEN:
        path.write_text(json.dumps(neutral(trace), ensure_ascii=False, indent=1) + "\n", "utf-8")
    assert path.exists(), f"no golden trace {path.name}: record them with LOOPSTEP_REGEN=1"
    assert json.loads(path.read_text("utf-8")) == neutral(trace)


def plain_output(lesson_id, block, scenario):
    """What the block prints run by plain exec, untraced, under the same stand-ins."""
    spec = load_lesson(lesson_id)
    folder = Folder()
    output = Output(folder)
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout = sys.stderr = output
    try:
        with standins.Run(spec.standins, output, folder) as run:
            sys.stdin = run.stdin()
            for program in custom.programs(spec, block, scenario, None):
                exec(compile(program.text, program.path, "exec"), run.namespace)
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved
    return output.getvalue()


@pytest.mark.parametrize("block, scenario", RUNS, ids=[f"{b}/{s}" for b, s in RUNS])
def test_agent_whole_equals_a_plain_run_and_its_golden_trace(block, scenario):
    trace = record("agent-whole", block, scenario)
    assert trace["status"] == "finished"
    assert trace["stdout"] == plain_output("agent-whole", block, scenario)
    check_golden(block, scenario, trace)


def test_delegates_makes_five_model_calls_the_middle_three_the_subagents():
    trace = record("agent-whole", "agent_loop", "delegates")
    agent = trace["agent"]
    assert [agent["conversations"][c["conversation"]]["depth"] for c in agent["calls"]] == \
        [0, 1, 1, 1, 0]
    assert [c["stop_reason"] for c in agent["calls"]] == \
        ["tool_use", "tool_use", "tool_use", "end_turn", "end_turn"]
    results = {t["input"].get("command"): t["result"] for t in agent["tools"]}
    assert results["cat requirements.txt"] == "pytest>=8.0\nrequests>=2.31"
    assert results["ls"] == "README.md\nrequirements.txt\nsrc"
    assert [t["name"] for t in agent["tools"]] == ["task", "bash", "bash"]
    child_prompt = agent["messages"][agent["calls"][1]["messages"][0]]
    assert child_prompt == ["user", "读 requirements.txt，说出测试框架和版本。"]



@pytest.mark.parametrize("block", ["loop", "whole"])
def test_the_pair_and_the_whole_file_step_into_the_subagent(block):
    trace = record("agent-whole", block, "delegates")
    agent = trace["agent"]
    assert [agent["conversations"][c["conversation"]]["depth"] for c in agent["calls"]] == \
        [0, 1, 1, 1, 0]
    assert [t["name"] for t in agent["tools"]] == ["task", "bash", "bash"]
    inside = [s for s in trace["steps"] if s["fn"] == "run_subagent"]
    assert {s["line"] for s in inside} >= {99, 102, 116, 120}   # file lines
    outer = [f["name"] for f in trace["stacks"][inside[0]["stack"]] if not f["hidden"]]
    # the task tool's lambda runs between them: displayed only in the whole file
    assert outer == ["agent_loop"] + (["<lambda>"] if block == "whole" else [])
    module = [s["line"] for s in trace["steps"] if s["fn"] == "<module>"]
    if block == "whole":   # the file's own statements, its __main__ REPL included
        assert {19, 21, 22, 23, 91, 145, 148} <= set(module)
    else:
        assert module == []


def test_the_runs_folder_is_shown_at_one_fixed_path():
    trace = record("agent-whole", "safe_path", "reads")
    assert trace["stdout"].endswith(f"{SHOWN}/src/app.py\nValueError: Path escapes "
                                    "workspace: ../secrets.txt\n")
    values = [v for step in trace["steps"] for v in step["set"].values()]
    assert f"PosixPath('{SHOWN}/src/app.py')" in values
    assert tempfile.gettempdir() not in json.dumps(trace) or tempfile.gettempdir() == "/tmp"
    assert "loopstep-run-" not in json.dumps(trace)


def test_loopstep_trace_prints_the_shown_folder_and_leaves_nothing(capsys):
    assert cli.main(["trace", "agent-whole/safe_path", "--scenario", "reads"]) == 0
    capsys.readouterr()          # the first call imports what the command itself needs
    before = set(sys.modules), os.getcwd(), dict(os.environ)
    assert cli.main(["trace", "agent-whole/safe_path", "--scenario", "reads"]) == 0
    out = capsys.readouterr().out
    assert f"path = PosixPath('{SHOWN}/src/app.py')" in out
    assert (set(sys.modules), os.getcwd(), dict(os.environ)) == before


# -- small lessons of our own --------------------------------------------------------------
TOML = """title = {{zh = "测", en = "T"}}
summary = {{zh = "测", en = "T"}}
setup = "{id}/setup.py"
modules = ["{id}/code.py"]
[[presets]]
name = "normal"
zh = "正常"
en = "Normal"
[[blocks]]
symbol = "{symbol}"
source = "{id}/code.py"
presets = ["normal"]
entry = '''{entry}'''
{extra}
"""


def write(root, lesson_id, code, setup="", symbol="main", entry="", extra=""):
    folder = root / lesson_id
    folder.mkdir(parents=True)
    (folder / "code.py").write_text(code, "utf-8")
    (folder / "setup.py").write_text(setup, "utf-8")
    (folder / "lesson.toml").write_text(TOML.format(id=lesson_id, symbol=symbol, entry=entry,
                                                    extra=extra), "utf-8")
    return root


REPL = '''import os
from anthropic import Anthropic
from dotenv import load_dotenv

print("dotenv:", load_dotenv(override=True))
client = Anthropic(api_key=os.environ["KEY"])


def main(query):
    reply = client.messages.create(model=os.environ["MODEL_ID"], max_tokens=100,
                                   messages=[{"role": "user", "content": query}])
    return reply.content[0].text


if __name__ == "__main__":
    while True:
        try:
            query = input("> ")
        except EOFError:
            print("[eof]")
            break
        print(main(query))
'''
REPL_SETUP = '''def reply(*, messages, **request):
    return "echo: " + messages[-1]["content"]
'''
REPL_STANDINS = '''[standins]
modules = ["anthropic", "dotenv", "subprocess"]
model = "reply"
env = { MODEL_ID = "m-1", KEY = "k" }
files = { "notes/a.txt" = "one\\n" }
input = ["hello", "again"]
'''


@pytest.fixture
def roots(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))
    (tmp_path / "temp").mkdir()
    root = tmp_path / "lessons"
    write(root, "repl", REPL, REPL_SETUP, extra=REPL_STANDINS)
    write(root, "real", "def main():\n    import subprocess\n    return subprocess\n",
          entry="import subprocess\nprint(main() is subprocess, hasattr(subprocess, 'Popen'))\n")
    write(root, "boom", "def main():\n    os.chdir('notes')\n    sys.path.append('x')\n"
                        "    builtins.input = len\n    os.environ['EXTRA'] = '1'\n"
                        "    import json, subprocess\n    raise RuntimeError(os.getcwd())\n",
          "import builtins, os, sys\n", entry="main()",
          extra='[standins]\nmodules = ["subprocess"]\nfiles = { "notes/a.txt" = "x" }\n')
    write(root, "spin", "def main():\n    import subprocess\n    while True:\n        pass\n",
          entry="main()", extra='[standins]\nmodules = ["subprocess"]\n')
    return [root], tmp_path / "temp"


def state():
    return (dict(sys.modules), dict(os.environ), os.getcwd(), dict(vars(builtins)),
            list(sys.path))


def test_a_repl_runs_on_the_input_answers_then_ends_at_eof(roots):
    lessons, _ = roots
    trace = record("repl", "main", "normal", roots=lessons)
    assert trace["stdout"] == ("dotenv: True\n> hello\necho: hello\n> again\necho: again\n"
                               "> [eof]\n")
    calls = trace["agent"]["calls"]
    assert [trace["agent"]["messages"][c["messages"][0]] for c in calls] == \
        [["user", "hello"], ["user", "again"]]
    assert [trace["agent"]["messages"][c["response"]] for c in calls] == \
        [["assistant", ["echo: hello"]], ["assistant", ["echo: again"]]]


@pytest.mark.parametrize("lesson_id, status", [("repl", "finished"), ("boom", "exception"),
                                               ("spin", "step_limit")])
def test_runs_leave_nothing_behind(roots, lesson_id, status):
    lessons, temp = roots
    before = state()
    trace = record(lesson_id, "main", "normal", roots=lessons, max_steps=500)
    assert trace["status"] == status
    assert state() == before
    assert list(temp.iterdir()) == []            # the run's folder is gone
    if lesson_id == "boom":
        assert trace["message"] == f"RuntimeError: {SHOWN}/notes"


def test_a_lesson_after_stand_ins_gets_the_real_subprocess(roots):
    lessons, _ = roots
    before = sys.modules.get("anthropic")   # the real SDK, if another test imported it
    record("repl", "main", "normal", roots=lessons)
    record("spin", "main", "normal", roots=lessons, max_steps=100)
    trace = record("real", "main", "normal", roots=lessons)
    assert trace["stdout"] == "True True\n"
    assert sys.modules["subprocess"] is real_subprocess
    assert sys.modules.get("anthropic") is before   # the stand-in is gone


OPENAI_SETUP = '''def reply(*, messages, **request):
    if len(messages) == 1:
        return {"tool_calls": [{"name": "ls", "arguments": {"path": "."}}]}
    return "files: " + messages[-1]["content"]
'''


def test_openai_calls_are_recorded_as_model_calls(tmp_path):
    write(tmp_path, "oa", OPENAI_LOOP, OPENAI_SETUP, entry="print(main('what is here?'))",
          extra='[standins]\nmodules = ["openai"]\nmodel = "reply"\n'
                'files = { "a.txt" = "", "b.txt" = "" }\n')
    trace = record("oa", "main", "normal", roots=[tmp_path])
    assert trace["stdout"] == "files: a.txt,b.txt\n"
    agent = trace["agent"]
    second = agent["calls"][1]
    assert [c["stop_reason"] for c in agent["calls"]] == ["tool_calls", "stop"]
    assert [agent["messages"][i] for i in second["messages"]] == [
        ["user", "what is here?"],
        ["assistant", [["tool_use", "call_001", "ls", {"path": "."}]]],
        ["user", [["tool_result", "call_001", "a.txt,b.txt", False]]]]
    assert agent["messages"][second["response"]] == ["assistant", "files: a.txt,b.txt"]
