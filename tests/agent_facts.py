"""What the model and tool calls of the bundled lessons must show (``trace["agent"]``),
as checks shared by the CPython and the Pyodide tests.

``RUNS`` lists (lesson, block, scenario); ``check(run, trace)`` raises AssertionError
when a fact does not hold.
"""

RUNS = [("s06", "run_subagent", s) for s in ("normal", "forbidden", "limit", "missing",
                                             "invalid")]
RUNS += [("s06", "child_tools", "normal"), ("s06", "task_result", "normal")]
RUNS += [("lcc-s06", "agent_loop", s) for s in ("answers", "denied", "turn_limit", "stop_hook")]
RUNS += [("lcc-s06", "run_subagent", "answers"), ("lcc-s06", "execute_tool", "answers")]
RUNS += [("s06-recursive", "run_subagent", s) for s in ("depth0", "depth1", "depth2")]
RUNS += [("s01", "run_loop", s) for s in ("answered", "call_limit", "model_error",
                                          "protocol_error", "model_stopped")]


def messages(agent, call):
    return [agent["messages"][i] for i in call["messages"]]


def first_calls(agent):
    """The first call of each conversation, by conversation index."""
    found = {}
    for call in agent["calls"]:
        found.setdefault(call["conversation"], call)
    return found


def _s06_run_subagent(scenario, trace):
    if scenario in ("missing", "invalid"):
        assert "agent" not in trace
        return
    agent = trace["agent"]
    calls, tools = agent["calls"], agent["tools"]
    assert agent["conversations"] == [{"depth": 0, "parent": None}]
    task = ["user", "读取 main.py，说明源码推导；不要运行。"]
    assert messages(agent, calls[0]) == [task] and calls[0]["new"] == 1
    if scenario == "limit":
        assert (len(calls), len(tools)) == (1, 1)
        return
    if scenario == "forbidden":
        assert [t["name"] for t in tools] == ["run_main"]
        assert tools[0]["result"] == "未执行：未注册工具。" and tools[0]["error"] is True
        sent = messages(agent, calls[1])
        assert sent[2] == ["user", [["tool_result", "child_0", "未执行：未注册工具。", True]]]
        return
    assert (len(calls), len(tools)) == (3, 2)
    third = messages(agent, calls[2])
    assert third == [
        task,
        ["assistant", [["tool_use", "child_0", "read_file", {"path": "main.py"}]]],
        ["user", [["tool_result", "child_0", "print(6 * 7)", False]]],
        ["assistant", [["tool_use", "child_1", "read_file", {"path": "expected.txt"}]]],
        ["user", [["tool_result", "child_1", "42", False]]],
    ]
    assert [c["new"] for c in calls] == [1, 2, 2]
    assert calls[2]["stop_reason"] == "end_turn" and calls[2]["error"] is None
    assert agent["messages"][calls[2]["response"]] == ["assistant", ["源码推导42；尚未运行。"]]
    assert [(t["name"], t["id"], t["input"], t["result"], t["error"]) for t in tools] == [
        ("read_file", "child_0", {"path": "main.py"}, "print(6 * 7)", False),
        ("read_file", "child_1", {"path": "expected.txt"}, "42", False)]
    # every call's step is a step of the run, before its return
    for record in calls + tools:
        assert 0 <= record["step"] < record["ret"] <= len(trace["steps"])
    assert [c["step"] for c in calls] == sorted(c["step"] for c in calls)


def _lcc_agent_loop(scenario, trace):
    agent = trace["agent"]
    assert [c["depth"] for c in agent["conversations"]] == [0, 1]
    assert agent["conversations"][1]["parent"] == 0
    first = first_calls(agent)
    child = messages(agent, first[1])
    prompt = ("把一行 hello 写进 ../outside.txt，然后汇报结果。" if scenario == "denied"
              else "读取 requirements.txt，找出这个项目使用的测试框架，返回名称和版本。")
    assert child == [["user", prompt]]
    parent_last = [c for c in agent["calls"] if c["conversation"] == 0][-1]
    got_back = messages(agent, parent_last)[-1]
    task_result = [t for t in agent["tools"] if t["name"] == "task"][0]["result"]
    assert got_back == ["user", [["tool_result", "toolu_001", task_result, False]]]
    child_calls = [c for c in agent["calls"] if c["conversation"] == 1]
    final = agent["messages"][child_calls[-1]["response"]]
    if scenario != "turn_limit":
        assert final[1] == [task_result]
    else:
        assert len(child_calls) == 30


def _s06_recursive(scenario, trace):
    agent = trace["agent"]
    depth = int(scenario[-1])
    assert [c["depth"] for c in agent["conversations"]] == list(range(depth + 1))
    chain = ["整理这个项目的测试约定，必要时派子任务。",
             "查清这个项目用什么测试框架，必要时派子任务。",
             "读取 requirements.txt，返回测试框架的名称和版本。"][2 - depth:]
    first = first_calls(agent)
    assert [messages(agent, first[i]) for i in range(depth + 1)] == [
        [["user", text]] for text in chain]
    assert [t["name"] for t in agent["tools"]] == ["read_file"]
    assert agent["tools"][0]["input"] == {"path": "requirements.txt"}


def _s01(scenario, trace):
    agent = trace["agent"]
    calls = agent["calls"]
    expected = {"answered": 3, "call_limit": 3, "model_error": 2, "protocol_error": 1,
                "model_stopped": 2}[scenario]
    assert len(calls) == expected
    if scenario == "model_error":
        assert calls[-1]["error"] == {"type": "ConnectionError", "message": "网络中断"}
        assert calls[-1]["response"] is None and calls[-1]["stop_reason"] is None
    if scenario == "model_stopped":
        assert calls[-1]["stop_reason"] == "max_tokens"


def check(run, trace):
    lesson, block, scenario = run
    if lesson == "s06" and block == "run_subagent":
        _s06_run_subagent(scenario, trace)
    elif lesson == "s06":
        assert "agent" not in trace
    elif (lesson, block) == ("lcc-s06", "agent_loop"):
        _lcc_agent_loop(scenario, trace)
    elif (lesson, block) == ("lcc-s06", "run_subagent"):
        assert [c["depth"] for c in trace["agent"]["conversations"]] == [0]
    elif (lesson, block) == ("lcc-s06", "execute_tool"):
        agent = trace["agent"]
        assert agent["calls"] == [] and [t["name"] for t in agent["tools"]] == ["read_file"]
        assert agent["tools"][0]["result"] == "pytest>=8.0"
    elif lesson == "s06-recursive":
        _s06_recursive(scenario, trace)
    elif lesson == "s01":
        _s01(scenario, trace)
    else:
        raise AssertionError(f"no facts for {run}")
