"""What the s06 traces must show, as checks shared by the CPython and Pyodide tests.

Each check takes a trace dict (format 1) and raises AssertionError when a fact
does not hold. ``FACTS[(block, scenario)]`` lists the checks of a run.
"""

import ast
import json
import os
from pathlib import Path

OUTPUTS = {
    ("child_tools", "normal"): "完成： 只读工具已选出\n",
    ("child_tools", "missing"): "缺少只读工具：read_file\n",
    ("run_subagent", "normal"): "完成： answered\n",
    ("run_subagent", "missing"): "缺少只读工具：read_file\n",
    ("run_subagent", "limit"): "完成： call_limit\n",
    ("run_subagent", "forbidden"): "完成： answered\n",
    ("run_subagent", "invalid"): "子任务必须是1到600字符的文本。\n",
    ("task_result", "normal"):
        '完成： {"status": "answered", "summary": "源码推导42；尚未运行。", "calls": 3}\n',
    ("task_result", "limit"):
        '完成： {"status": "call_limit", "summary": "已达子循环预算，尚未得出结论。", "calls": 1}\n',
    ("task_result", "long"):
        '完成： {"status": "answered", "summary": "' + "长" * 1200
        + '（结论过长，已截断；请缩小子任务）", "calls": 3}\n',
}
RUNS = list(OUTPUTS)


def locals_at(trace, index):
    """The locals of step ``index``'s frame: the fold of that frame's set/del."""
    frame = trace["steps"][index]["frame"]
    names = {}
    for step in trace["steps"][:index + 1]:
        if step["frame"] == frame:
            names.update(step["set"])
            for name in step.get("del", []):
                names.pop(name, None)
    return names


def dict_value(value, key):
    """The VALUE under string key ``key`` of an encoded dict."""
    assert value[0] == "dict", value
    for k, v in value[2:]:
        if k == repr(key):
            return v
    raise AssertionError(f"no key {key!r} in {value}")


def first(trace, **match):
    for index, step in enumerate(trace["steps"]):
        if all(step.get(k) == v for k, v in match.items()):
            return index
    raise AssertionError(f"no step with {match}")


def child_tools_normal(trace):
    at = first(trace, event="line", fn="child_tools", line=7)
    assert locals_at(trace, at)["selected"] == ["dict", 0]
    after = trace["steps"][at + 1]
    selected = after["set"]["selected"]
    assert selected[:2] == ["dict", 1] and selected[2][0] == "'read_file'"


def child_tools_missing(trace):
    first(trace, event="line", fn="child_tools", line=6)
    assert not [s for s in trace["steps"] if s["line"] == 7]
    assert "selected" not in trace["steps"][-1]["set"]
    assert locals_at(trace, len(trace["steps"]) - 1)["selected"] == ["dict", 0]
    assert trace["error"] == {"type": "ValueError", "message": "缺少只读工具：read_file",
                              "line": 6}


def _over_run_loop(trace):
    at = first(trace, event="line", fn="run_subagent", line=15)
    step = trace["steps"][at]
    assert step["end"] == 16
    assert "outcome" not in locals_at(trace, at)
    for index in range(at + 1, len(trace["steps"])):
        later = trace["steps"][index]
        if later["depth"] <= step["depth"]:
            return at, index
    raise AssertionError("run_subagent never comes back from run_loop")


def run_subagent_normal(trace):
    at, back = _over_run_loop(trace)
    landed = trace["steps"][back]
    assert (landed["event"], landed["fn"], landed["line"]) == ("line", "run_subagent", 17)
    outcome = landed["set"]["outcome"]
    assert dict_value(outcome, "status") == "'answered'"
    assert dict_value(outcome, "calls") == "3"
    between = trace["steps"][at + 1:back]
    assert {s["fn"] for s in between} == {"<lambda>", "execute"}
    for s in between:
        names = [(f["name"], f["hidden"]) for f in trace["stacks"][s["stack"]]]
        assert ("run_loop", True) in names and ("run_subagent", False) in names
        assert names.index(("run_subagent", False)) < names.index(("run_loop", True))


def run_subagent_limit(trace):
    at, back = _over_run_loop(trace)
    reads = [s for s in trace["steps"] if s["fn"] == "execute" and s["event"] == "return"]
    assert len(reads) == 1
    assert dict_value(reads[0]["ret"], "content") == "'print(6 * 7)'"
    landed = trace["steps"][back]
    assert landed["line"] == 17
    assert dict_value(landed["set"]["outcome"], "status") == "'call_limit'"
    assert dict_value(landed["set"]["outcome"], "calls") == "1"


def run_subagent_forbidden(trace):
    calls = [s for s in trace["steps"] if s["fn"] == "execute" and s["event"] == "call"]
    assert len(calls) == 1
    assert dict_value(calls[0]["set"]["call"], "name") == "'run_main'"
    ret = next(s for s in trace["steps"] if s["fn"] == "execute" and s["event"] == "return")
    assert dict_value(ret["ret"], "content") == "'未执行：未注册工具。'"
    assert dict_value(ret["ret"], "is_error") == "True"
    assert dict_value(trace["result"], "status") == "'answered'"
    assert dict_value(trace["result"], "text") == "'未执行：未注册工具。'"


def run_subagent_missing(trace):
    assert trace["error"] == {"type": "ValueError", "message": "缺少只读工具：read_file",
                              "line": 7}
    assert not [s for s in trace["steps"] if s["line"] > 7]


def run_subagent_invalid(trace):
    assert trace["error"]["line"] == 4
    assert max(s["line"] for s in trace["steps"]) == 4


def _content_keys(trace):
    text = trace["stdout"].split("完成： ", 1)[1]
    return list(json.loads(text))


def task_result_limit(trace):
    at = first(trace, event="line", fn="task_result", line=10)
    assert trace["steps"][at]["end"] == 11
    names = locals_at(trace, at)
    assert names["failed"] == "True"
    assert dict_value(names["call"], "id") == "'parent_task_1'"
    assert dict_value(trace["result"], "tool_use_id") == "'parent_task_1'"
    assert dict_value(trace["result"], "is_error") == "True"
    assert _content_keys(trace) == ["status", "summary", "calls"]


def task_result_long(trace):
    lines = [s["line"] for s in trace["steps"] if s["event"] == "line"]
    assert 7 in lines and 8 in lines
    assert dict_value(trace["result"], "is_error") == "True"
    content = json.loads(trace["stdout"].split("完成： ", 1)[1])
    assert list(content) == ["status", "summary", "calls"]
    assert content["summary"].endswith("（结论过长，已截断；请缩小子任务）")


def task_result_normal(trace):
    lines = [s["line"] for s in trace["steps"] if s["event"] == "line"]
    assert 7 not in lines
    content = ast.literal_eval(dict_value(trace["result"], "content"))
    assert list(json.loads(content)) == ["status", "summary", "calls"]
    assert dict_value(trace["result"], "is_error") == "False"


FACTS = {
    ("child_tools", "normal"): [child_tools_normal],
    ("child_tools", "missing"): [child_tools_missing],
    ("run_subagent", "normal"): [run_subagent_normal],
    ("run_subagent", "missing"): [run_subagent_missing],
    ("run_subagent", "limit"): [run_subagent_limit],
    ("run_subagent", "forbidden"): [run_subagent_forbidden],
    ("run_subagent", "invalid"): [run_subagent_invalid],
    ("task_result", "normal"): [task_result_normal],
    ("task_result", "limit"): [task_result_limit],
    ("task_result", "long"): [task_result_long],
}


def summary(trace):
    """The version-independent content of a trace, for cross-version comparison."""
    visited = sorted({(s["fn"], s["event"], s["line"], s["end"]) for s in trace["steps"]})
    changes = sorted({(s["fn"], name, json.dumps(value, ensure_ascii=False))
                      for s in trace["steps"] for name, value in s["set"].items()})
    returns = sorted({(s["fn"], json.dumps(s["ret"], ensure_ascii=False))
                      for s in trace["steps"] if "ret" in s})
    return {key: trace[key] for key in ("lesson", "block", "scenario", "first_line", "status",
                                        "message", "stdout", "result", "error")} | {
        "visited": visited, "changes": changes, "returns": returns,
        "frames": len({s["frame"] for s in trace["steps"]}),
        "stacks": sorted({json.dumps(stack, ensure_ascii=False) for stack in trace["stacks"]}),
    }


# -- golden traces ---------------------------------------------------------------
# One set for every Python and backend: tests/golden/s06_<block>_<scenario>.json holds a
# trace without the two fields that name where it was recorded ("python", "backend").
# `LOOPSTEP_REGEN=1` rewrites them from the run at hand.

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("LOOPSTEP_REGEN") == "1"


def neutral(trace):
    """The trace without the fields that name the Python and the backend."""
    return {k: v for k, v in trace.items() if k not in ("python", "backend")}


def check_golden(run, trace):
    path = GOLDEN / f"s06_{run[0]}_{run[1]}.json"
    if REGEN:
        path.write_text(json.dumps(neutral(trace), ensure_ascii=False, indent=1) + "\n", "utf-8")
    assert path.exists(), f"no golden trace {path.name}: record them with LOOPSTEP_REGEN=1"
    assert json.loads(path.read_text("utf-8")) == neutral(trace)
