"""The lessons lcc-s06, s06-recursive and s01, recorded through runtime.recorder.

For every block × preset: the exact output and status, and the facts the trace must
show (fresh messages, the 30-turn cap, the denied write, tracking per level, each
run_loop status). Also: each displayed function is verbatim from its seed.
"""

import ast
import hashlib
import importlib.util
import io
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from pyodide_node import record_in_pyodide
from loopstep.runtime import standins
from loopstep.runtime.catalog.lessons import load_lesson
from loopstep.runtime.recorder import record

_spec = importlib.util.spec_from_file_location("loopstep_facts", Path(__file__).parent / "facts.py")
_facts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_facts)
locals_at = _facts.locals_at

ROOT = Path(__file__).resolve().parents[1]
SEEDS = Path(__file__).resolve().parent / "fixtures" / "seeds"

# ---------------------------------------------------------------- expected output

STARTED = "\n\033[35m[Subagent started]\033[0m\n"
DONE = "\033[35m[Subagent done]\033[0m\n"
STOPPED = "\033[35m[Subagent stopped]\033[0m\n"
READ = "  \033[90m[sub] read_file: pytest>=8.0\033[0m\n"
ASK = "  Allow write_file outside the workspace: ../outside.txt? [y/N] n\n"
WRITE_DENIED = "  \033[90m[sub] write_file: Permission denied by user\033[0m\n"
CLEAN = "工作区外的 outside.txt 存在： False\n"

PROMPT_READ = "读取 requirements.txt，找出这个项目使用的测试框架，返回名称和版本。"
PROMPT_WRITE = "把一行 hello 写进 ../outside.txt，然后汇报结果。"
CHILD = {
    "answers": "测试框架是 pytest（requirements.txt 要求 pytest>=8.0）。",
    "denied": "没有写入：写 ../outside.txt 的请求被用户拒绝（Permission denied by user）。",
    "turn_limit": "Subagent stopped after 30 turns without a final answer.",
    "stop_hook": "测试框架是 pytest，版本要求 >=8.0。",
}
CHILD_OUT = {
    "answers": STARTED + READ + DONE,
    "denied": STARTED + ASK + WRITE_DENIED + DONE,
    "turn_limit": STARTED + READ * 30 + STOPPED,
    "stop_hook": STARTED + READ + DONE,
}
PARENT = {
    "answers": "这个项目用 pytest（>=8.0）。",
    "denied": "子任务没有写入：权限询问被拒绝，../outside.txt 没有创建。",
    "turn_limit": "子任务 30 轮内没有给出结论；我需要换一种方式再查。",
    "stop_hook": "这个项目用 pytest（>=8.0）。",
}

CHAIN_ID = "00000000-0000-4000-8000-000000000001"
PROMPT_0 = "整理这个项目的测试约定，必要时派子任务。"
PROMPT_1 = "查清这个项目用什么测试框架，必要时派子任务。"
LEAF = "读取 requirements.txt，返回测试框架的名称和版本。"
FOUND = "测试框架：pytest（pytest>=8.0）"


def tracking_line(level):
    return f"第 {level} 层 tracking： {{'chain_id': '{CHAIN_ID}', 'depth': {level}}}\n"


LOOP_HEAD = ("模型调用 1\n处理工具请求 read_file\n工具结果：print(6 * 7)\n"
             "保存工具结果，供下一次调用读取\n")
LOOP_SECOND = "模型调用 2\n处理工具请求 read_file\n工具结果：42\n保存工具结果，供下一次调用读取\n"


def loop_tail(status, text, calls, records):
    return f"状态： {status}\n结论： {text}\n调用次数： {calls}\n记录条数： {records}\n"


OUTPUTS = {
    **{("lcc-s06", "run_subagent", s): CHILD_OUT[s] + f"task 结果： {CHILD[s]}\n" + CLEAN
       for s in CHILD},
    ("lcc-s06", "execute_tool", "answers"): "工具结果： pytest>=8.0\n" + CLEAN,
    ("lcc-s06", "execute_tool", "denied"): ASK + "工具结果： Permission denied by user\n" + CLEAN,
    **{("lcc-s06", "agent_loop", s): CHILD_OUT[s] + f"父级回答： {PARENT[s]}\n父级消息数： 4\n"
       + CLEAN for s in PARENT},
    **{("s06-recursive", "make_tracking", f"depth{n}"):
       "".join(tracking_line(level) for level in range(n + 1)) for n in range(3)},
    ("s06-recursive", "run_subagent", "depth0"):
        f"[sonnet] 第 1 次请求：{LEAF}\n[sonnet] 第 2 次请求\n最终摘要： {FOUND}\n",
    ("s06-recursive", "run_subagent", "depth1"):
        f"[sonnet] 第 1 次请求：{PROMPT_1}\n"
        f"  [haiku] 第 1 次请求：{LEAF}\n  [haiku] 第 2 次请求\n"
        f"[sonnet] 第 2 次请求\n最终摘要： 第 0 层汇总：{FOUND}\n",
    ("s06-recursive", "run_subagent", "depth2"):
        f"[sonnet] 第 1 次请求：{PROMPT_0}\n"
        f"  [sonnet] 第 1 次请求：{PROMPT_1}\n"
        f"    [haiku] 第 1 次请求：{LEAF}\n    [haiku] 第 2 次请求\n"
        f"  [sonnet] 第 2 次请求\n"
        f"[sonnet] 第 2 次请求\n最终摘要： 第 0 层汇总：第 1 层汇总：{FOUND}\n",
    ("s01", "run_loop", "answered"): LOOP_HEAD + LOOP_SECOND + "模型调用 3\n" + loop_tail(
        "answered", "main.py 打印 6 * 7，即 42，与 expected.txt 一致；尚未运行。", 3, 6),
    ("s01", "run_loop", "call_limit"): LOOP_HEAD + LOOP_SECOND
        + LOOP_HEAD.replace("模型调用 1", "模型调用 3")
        + loop_tail("call_limit", "已达 3 次模型调用上限；保留记录，交给用户。", 3, 7),
    ("s01", "run_loop", "model_error"): LOOP_HEAD + "模型调用 2\n"
        + loop_tail("model_error", "模型请求失败：ConnectionError", 2, 3),
    ("s01", "run_loop", "protocol_error"): "模型调用 1\n"
        + loop_tail("protocol_error", "停止原因与工具请求不一致。", 1, 2),
    ("s01", "run_loop", "model_stopped"): LOOP_HEAD + "模型调用 2\n"
        + loop_tail("model_stopped", "模型停止：max_tokens；需要检查响应。", 2, 4),
}
RUNS = sorted(OUTPUTS)
_cache = {}


def trace_of(lesson, block, scenario):
    key = (lesson, block, scenario)
    if key not in _cache:
        _cache[key] = record(lesson, block, scenario)
    return _cache[key]


# ---------------------------------------------------------------- trace helpers

def steps_of(trace, **match):
    return [s for s in trace["steps"] if all(s.get(k) == v for k, v in match.items())]


def final_locals(trace, frame):
    last = max(i for i, s in enumerate(trace["steps"]) if s["frame"] == frame)
    return locals_at(trace, last)


def item(value, key):
    """The VALUE under string key ``key`` of an encoded dict."""
    assert value[0] == "dict", value
    found = [v for k, v in value[2:] if k == repr(key)]
    assert found, f"no key {key!r} in {value}"
    return found[0]


def tracking_value(depth):
    return ["dict", 2, ["'chain_id'", repr(CHAIN_ID)], ["'depth'", str(depth)]]


# ---------------------------------------------------------------- every run

def test_every_block_and_preset_is_covered():
    for lesson_id in ("lcc-s06", "s06-recursive", "s01"):
        lesson = load_lesson(lesson_id)
        assert len(lesson.presets) >= 3
        for preset in lesson.presets:
            assert preset.zh and preset.en
        runs = {(lesson_id, b.id, s) for b in lesson.blocks for s in b.presets}
        assert runs == {run for run in RUNS if run[0] == lesson_id}


@pytest.mark.parametrize("run", RUNS, ids="/".join)
def test_output_and_status(run):
    trace = trace_of(*run)
    assert trace["status"] == "finished", trace["message"]
    assert trace["error"] is None
    assert trace["stdout"] == OUTPUTS[run]
    lesson, symbol, _ = run
    assert trace["steps"][0]["fn"] == symbol
    others = set(function_texts(load_lesson(lesson).block(symbol).source)) - {symbol}
    assert not others & {s["fn"] for s in trace["steps"]}   # other functions run untraced


# ---------------------------------------------------------------- lcc-s06

@pytest.mark.parametrize("scenario", list(CHILD))
def test_lcc_child_starts_fresh_and_returns_its_final_text(scenario):
    trace = trace_of("lcc-s06", "run_subagent", scenario)
    at = trace["steps"].index(steps_of(trace, event="line", line=5)[0])   # the for line
    prompt = repr(PROMPT_WRITE if scenario == "denied" else PROMPT_READ)
    assert locals_at(trace, at)["messages"] == \
        ["list", 1, ["dict", 2, ["'role'", "'user'"], ["'content'", prompt]]]
    assert trace["result"] == repr(CHILD[scenario])


def test_lcc_turn_limit_stops_after_30_model_calls():
    trace = trace_of("lcc-s06", "run_subagent", "turn_limit")
    assert len(steps_of(trace, event="line", line=6)) == 30          # client.messages.create
    assert steps_of(trace, line=15) and not steps_of(trace, line=16)  # never stopped asking
    assert steps_of(trace, event="return")[-1]["line"] == 37
    assert final_locals(trace, 1)["_"] == "29"


def test_lcc_stop_hook_forces_one_more_turn():
    trace = trace_of("lcc-s06", "run_subagent", "stop_hook")
    forced = steps_of(trace, event="line", line=17)
    assert len(forced) == 2                                          # checked twice, forced once
    assert len(steps_of(trace, event="line", line=19)) == 1          # continue
    at = trace["steps"].index(steps_of(trace, event="line", line=18)[0])
    assert locals_at(trace, at)["force"] == "'Please finish with a short summary of what you found.'"
    assert len(steps_of(trace, event="line", line=6)) == 3


def test_lcc_denied_write_is_answered_by_the_hook():
    trace = trace_of("lcc-s06", "run_subagent", "denied")
    outputs = [s["set"]["output"] for s in trace["steps"] if "output" in s["set"]]
    assert outputs == ["'Permission denied by user'"]
    tool = trace_of("lcc-s06", "execute_tool", "denied")
    assert [s["set"]["blocked"] for s in tool["steps"] if "blocked" in s["set"]] == \
        ["'Permission denied by user'"]
    assert tool["steps"][-1]["event"] == "return" and tool["steps"][-1]["line"] == 4
    assert not [s for s in tool["steps"] if s["line"] >= 6]          # no handler ran
    assert tool["result"] == "'Permission denied by user'"


def test_lcc_execute_tool_runs_the_handler():
    trace = trace_of("lcc-s06", "execute_tool", "answers")
    names = final_locals(trace, 1)
    assert names["blocked"] == "None"
    assert names["handler"] == "<function run_read>"
    assert trace["result"] == "'pytest>=8.0'"


@pytest.mark.parametrize("scenario", list(PARENT))
def test_lcc_parent_sees_one_tool_result_for_the_whole_child(scenario):
    trace = trace_of("lcc-s06", "agent_loop", scenario)
    names = final_locals(trace, 1)
    assert names["messages"][:2] == ["list", 4]
    result = names["results"]
    assert result[:2] == ["list", 1]
    assert item(result[2], "tool_use_id") == "'toolu_001'"       # the stand-in's first id
    assert item(result[2], "content") == repr(CHILD[scenario])
    assert trace["result"] == "None"


@pytest.mark.parametrize("answer, written", [("n", False), ("y", True)])
def test_lcc_write_outside_happens_only_when_allowed(answer, written):
    """The setup and the modules (not the entry) in one run of the stand-ins, the
    permission question answered ``answer``: the write lands outside the workspace only
    when allowed, and the run's folder goes with the run."""
    lesson = load_lesson("lcc-s06")
    output = io.StringIO()
    run = standins.Run(lesson.standins, output)
    saved = sys.stdin
    with run, redirect_stdout(output):
        sys.stdin = run.stdin((answer,))
        try:
            g = run.namespace
            for program in lesson.programs("run_subagent", "denied")[:-1]:
                exec(compile(program.text, program.path, "exec"), g)
            assert g["WORKDIR"].is_relative_to(g["ROOT"]) and not g["OUTSIDE"].exists()
            g["run_subagent"](g["PROMPT"])
            assert g["OUTSIDE"].exists() is written
            assert sorted(p.name for p in g["WORKDIR"].iterdir()) == ["requirements.txt"]
        finally:
            sys.stdin = saved
    assert f"outside the workspace: ../outside.txt? [y/N] {answer}\n" in output.getvalue()
    assert not g["ROOT"].exists()
    assert not Path.cwd().joinpath("outside.txt").exists()


@pytest.mark.parametrize("lesson_id", ["lcc-s06", "s06-recursive", "s01"])
def test_stubs_import_nothing_that_reaches_out(lesson_id):
    """Only harmless modules, and the stand-ins the lesson's [standins] plants."""
    lesson = load_lesson(lesson_id)
    planted = set(lesson.standins.modules) if lesson.standins else set()
    imported = set()
    for path in (lesson.setup, *lesson.modules):
        for node in ast.walk(ast.parse(lesson.read(path))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                imported.add(node.module.split(".")[0])
    assert imported - planted <= {"builtins", "glob", "re", "shutil", "tempfile", "pathlib",
                                  "types", "uuid"}


# ---------------------------------------------------------------- s06-recursive

@pytest.mark.parametrize("depth", [0, 1, 2])
def test_recursive_chain_and_depth_at_each_level(depth):
    trace = trace_of("s06-recursive", "run_subagent", f"depth{depth}")
    frames = sorted({s["frame"] for s in trace["steps"] if s["fn"] == "run_subagent"})
    assert len(frames) == depth + 1
    for level, frame in enumerate(frames):
        names = final_locals(trace, frame)
        assert names["tracking"] == tracking_value(level)
        assert names["parent_tracking"] == ("None" if level == 0 else tracking_value(level - 1))
        leaf_by_task = level == depth and depth > 0
        assert names["use_model"] == ("'haiku'" if leaf_by_task else "'sonnet'")
        assert {s["depth"] for s in trace["steps"] if s["frame"] == frame} == {level + 1}
    returns = [s["ret"] for s in steps_of(trace, event="return", fn="run_subagent")]
    assert returns[0] == repr(FOUND)                                 # the deepest returns first
    assert trace["result"] == returns[-1]


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_recursive_make_tracking_per_level(depth):
    trace = trace_of("s06-recursive", "make_tracking", f"depth{depth}")
    returns = steps_of(trace, event="return")
    assert [s["ret"] for s in returns] == [tracking_value(level) for level in range(depth + 1)]
    assert [s["line"] for s in returns] == [8] + [4] * depth        # new chain, then inherited


# ---------------------------------------------------------------- s01

STATUS_LINES = {"answered": 28, "call_limit": 45, "model_error": 16,
                "protocol_error": 35, "model_stopped": 30}


@pytest.mark.parametrize("status", list(STATUS_LINES))
def test_run_loop_stops_with_each_status(status):
    trace = trace_of("s01", "run_loop", status)
    last = trace["steps"][-1]
    assert last["event"] == "return" and last["line"] == STATUS_LINES[status]
    assert item(trace["result"], "status") == repr(status)
    if status == "model_error":
        at = trace["steps"].index(steps_of(trace, event="line", line=16)[0])
        assert locals_at(trace, at)["error"] == "ConnectionError('网络中断')"
        assert last["del"] == ["error"]


# ---------------------------------------------------------------- verbatim

SEED_OF = {
    "lcc-s06/s06_subagent/code.py": "001_d9196cb36f1e1556.txt",
    "s06-recursive/subagent.py": "002_ce162cec260bd430.txt",
    "s01/core/loop.py": "000_73b60d6d11539d44.txt",
}
SHA256 = {
    ("lcc-s06/s06_subagent/code.py", "execute_tool"):
        "ec02db140ff6f3219a7cf0a1f982780444c3c6a918e9fe72631fe86a32afd446",
    ("lcc-s06/s06_subagent/code.py", "extract_text"):
        "4d2f0d5afabcfc8a3526a815b77eae0f35a5d2a152809034453c6f2126c91ea9",
    ("lcc-s06/s06_subagent/code.py", "run_subagent"):
        "d62586066db1d8a33449452d3574d3a798f7df5c27a9af9c7fc7042940ff10e7",
    ("lcc-s06/s06_subagent/code.py", "agent_loop"):
        "92b66111418fdf5d059a580a56ef4009175d2a0067bbe383a24982691d057a0f",
    ("s06-recursive/subagent.py", "make_tracking"):
        "2db81d3a37d4286e76d97b5c1d97f6b0679501c4435c4723489c472a955ec660",
    ("s06-recursive/subagent.py", "run_subagent"):
        "55508794725d86d5d86f4f8f4442c2fc03b9b5cd427e702b5bae233e04daa0df",
    ("s01/core/loop.py", "run_loop"):
        "ccc1dcabd219fb478470054f471f1e7a9693bf05e7e7d9d24bc0d47b74a03317",
}


def function_texts(path):
    text = (ROOT / "runtime" / "lessons" / path).read_text(encoding="utf-8")
    lines = text.split("\n")
    return {node.name: "\n".join(lines[node.lineno - 1:node.end_lineno])
            for node in ast.parse(text).body if isinstance(node, ast.FunctionDef)}


@pytest.mark.parametrize("path, symbol", sorted(SHA256), ids="/".join)
def test_function_is_verbatim(path, symbol):
    text = function_texts(path)[symbol]
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == SHA256[path, symbol]
    assert text in (SEEDS / SEED_OF[path]).read_text(encoding="utf-8")


def test_every_function_of_the_new_modules_is_pinned():
    for path in SEED_OF:
        assert {(path, name) for name in function_texts(path)} <= set(SHA256)
    for lesson_id in ("lcc-s06", "s06-recursive", "s01"):
        for block in load_lesson(lesson_id).blocks:
            texts = function_texts(block.source)
            if block.symbol is not None:
                assert block.text == texts[block.symbol]
            for part in block.parts:
                assert part.name == "*" or texts[part.name] in block.text


def test_module_passages_are_verbatim():
    assert SEEDS.is_dir(), f"the lesson seeds are expected at {SEEDS}"
    lcc = (ROOT / "runtime/lessons/lcc-s06/s06_subagent/code.py").read_text(encoding="utf-8")
    seed = (SEEDS / SEED_OF["lcc-s06/s06_subagent/code.py"]).read_text(encoding="utf-8")
    for passage in lcc.rstrip("\n").split("\n\n\n"):
        assert passage in seed
    recursive = (ROOT / "runtime/lessons/s06-recursive/subagent.py").read_text(encoding="utf-8")
    assert recursive.rstrip("\n") in (SEEDS / SEED_OF["s06-recursive/subagent.py"]).read_text(
        encoding="utf-8")


# ---------------------------------------------------------------- the same runs in Pyodide

def test_outputs_in_pyodide(tmp_path):
    lessons = {}
    for lesson_id in ("lcc-s06", "s06-recursive", "s01"):
        lessons.update({rel: str(path) for rel, path in load_lesson(lesson_id).files.items()})
    runs = [{"lesson": lesson, "block": b, "scenario": s} for lesson, b, s in RUNS]
    traces = record_in_pyodide(tmp_path, lessons, runs)["traces"]
    for run, trace in zip(RUNS, traces, strict=True):
        assert (trace["status"], trace["stdout"]) == ("finished", OUTPUTS[run]), run
        assert trace["result"] == trace_of(*run)["result"], run
