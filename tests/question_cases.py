"""Recordings with questions shared by the CPython and the Pyodide tests (test_questions*.py).

``CASES[name] = (lesson, block, scenario, probes)``; ``check(name, trace)`` holds
the facts every interpreter must show for it.
"""

import importlib.util
from pathlib import Path

CONDITION = {"breakpoints": [{"line": 15, "condition": "max_calls == 1"}]}
RAISES = {"breakpoints": [{"line": 7, "condition": "undefined_name > 0"}]}
LOGPOINT = {"breakpoints": [{"line": 13, "log": "tool calls so far: {len(warnings)}"}]}
WATCHES = {"watches": ["len(restricted)", "restricted.clear()", "outcome['status']",
                       "[k for k in restricted if k != task]", "restricted"]}
HITS = {"breakpoints": [{"line": 11, "hits": 2}]}   # s01 run_loop: emit(f"模型调用 {number}")

CASES = {
    "condition_normal": ("s06", "run_subagent", "normal", CONDITION),
    "condition_limit": ("s06", "run_subagent", "limit", CONDITION),
    "raises": ("s06", "run_subagent", "normal", RAISES),
    "logpoint": ("s06", "run_subagent", "normal", LOGPOINT),
    "watches": ("s06", "run_subagent", "normal", WATCHES),
    "hits": ("s01", "run_loop", "call_limit", HITS),
}


def _facts():
    spec = importlib.util.spec_from_file_location("loopstep_facts_p", Path(__file__).parent / "facts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


locals_at = _facts().locals_at


def watch_values(trace):
    """{step: [VALUE per watch]} of each step's frame: the fold of the watch column."""
    probes = trace["probes"]
    count = len(probes["watches"])
    flat = probes["watch"]
    changes, index, k = {}, 0, 0
    while k < len(flat):
        index += flat[k]
        size = flat[k + 1]
        changes[index] = dict(zip(flat[k + 2:k + 2 + 2 * size:2], flat[k + 3:k + 3 + 2 * size:2]))
        k += 2 + 2 * size
    current, out = {}, {}
    for n, step in enumerate(trace["steps"]):
        values = current.setdefault(step["frame"], [None] * count)
        for wid, value in changes.get(n, {}).items():
            values[wid] = value
        out[n] = list(values)
    return out


def check(name, trace):
    probes = trace["probes"]
    bps = probes["breakpoints"]
    steps = trace["steps"]
    if name == "condition_normal":
        assert bps[0]["steps"] == [] and bps[0]["error"] is None
    elif name == "condition_limit":
        [hit] = bps[0]["steps"]
        assert steps[hit]["fn"] == "run_subagent" and steps[hit]["line"] == 15
        assert locals_at(trace, hit)["max_calls"] == "1"
    elif name == "raises":
        assert bps[0]["steps"] == []
        assert bps[0]["error"] == "NameError: name 'undefined_name' is not defined"
    elif name == "logpoint":
        assert probes["log"][2::3] == ["tool calls so far: 0"] * 2
        assert [steps[n]["line"] for n in probes["log"][0::3]] == [13, 13]
        assert bps[0]["steps"] == probes["log"][0::3]
    elif name == "watches":
        values = watch_values(trace)
        main = [n for n, s in enumerate(steps) if s["fn"] == "run_subagent"]
        before = [n for n in main if steps[n]["line"] <= 7]
        after = [n for n in main if steps[n]["line"] > 7]
        assert all(values[n][0] == {"error": "NameError: name 'restricted' is not defined"}
                   for n in before)
        assert all(values[n][0] == "1" for n in after)
        assert all(values[n][1]["error"].startswith("not evaluated: calling dict.clear")
                   for n in after)
        assert values[main[-1]][2] == "'answered'"
        assert all(values[n][3] == ["list", 1, "'read_file'"] for n in after)
        for n in main:   # a bare name's watch is that local's value, step by step
            assert values[n][4] == locals_at(trace, n).get(
                "restricted", {"error": "NameError: name 'restricted' is not defined"})
    elif name == "hits":
        [hit] = bps[0]["steps"]
        lines = [n for n, s in enumerate(steps) if s["event"] == "line" and s["line"] == 11]
        assert hit == lines[1]
        assert locals_at(trace, hit)["number"] == "2"
    else:
        raise AssertionError(name)


def portable(trace):
    """``probes`` with each step index as (fn, line, how many earlier "line" steps of that
    fn and line): comparable across Python versions whose step sequences differ."""
    seen, where = {}, []
    for step in trace["steps"]:
        key = (step["fn"], step["line"])
        where.append((*key, seen.get(key, 0)))
        if step["event"] == "line":
            seen[key] = seen.get(key, 0) + 1
    probes = dict(trace["probes"])
    probes["breakpoints"] = [dict(b, steps=[where[n] for n in b["steps"]])
                             for b in probes["breakpoints"]]
    log = probes["log"]
    probes["log"] = [(where[log[k]], log[k + 1], log[k + 2]) for k in range(0, len(log), 3)]
    probes["watch"] = [(where[n], values) for n, values in watch_values(trace).items()
                       if probes["watches"]]
    return probes
