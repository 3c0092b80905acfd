"""Async agents in CPython: the AsyncAnthropic/AsyncOpenAI stand-ins, the run's event loop
(runtime/world/aio.py) and the trace of coroutines — each await one step, the model and
tool calls captured once, the stack showing the task and the tasks awaiting it."""

import asyncio
import sys
import types

import pytest
from async_lesson import line_of, make_lesson

from loopstep.runtime.recorder import record
from loopstep.runtime.standins import anthropic, openai
from loopstep.runtime.standins.sdk import Ids
from loopstep.runtime.trace import backends
from loopstep.runtime.world import aio

BACKENDS = backends.available()
FIRST = line_of("async def agent_loop(task):")
CREATE = line_of("response = await client.messages.create(")
GATHER = line_of("results = await asyncio.gather(run_tool(first), run_tool(second))")
AWAIT_HANDLER = line_of("output = await handler(**block.input)")
ANSWER = "notes.txt read; the line has 3 words.\n"


@pytest.fixture(scope="module")
def roots(tmp_path_factory):
    return [str(make_lesson(tmp_path_factory.mktemp("async")))]


def steps_of(trace):
    return [(s["event"], s["fn"], s["line"]) for s in trace["steps"]]


def names(trace, step):
    """The stack at ``step`` as the stack pane lists it: the outer frames, then its own."""
    outer = trace["stacks"][step["stack"]]
    return [f["name"] for f in outer] + [step["fn"]]


# The tools block, stepped: each await statement is one step (none at the suspension, none
# at the resumption), the two tools interleave as the loop runs their tasks.
STEPS = [("call", "agent_loop", FIRST), ("line", "agent_loop", FIRST + 1),
         ("line", "agent_loop", FIRST + 2), ("line", "agent_loop", CREATE),
         ("line", "agent_loop", CREATE + 2), ("line", "agent_loop", CREATE + 3),
         ("line", "agent_loop", CREATE + 5), ("line", "agent_loop", GATHER),
         ("call", "run_tool", 21), ("line", "run_tool", 22), ("line", "run_tool", 23),
         ("call", "read_file", 9), ("line", "read_file", 10),
         ("call", "run_tool", 21), ("line", "run_tool", 22), ("line", "run_tool", 23),
         ("call", "count_words", 15), ("line", "count_words", 16),
         ("line", "count_words", 17), ("line", "count_words", 18),
         ("return", "count_words", 18), ("line", "run_tool", 24), ("return", "run_tool", 24),
         ("line", "read_file", 11), ("line", "read_file", 12), ("return", "read_file", 12),
         ("line", "run_tool", 24), ("return", "run_tool", 24),
         ("line", "agent_loop", GATHER + 1), ("line", "agent_loop", FIRST + 2),
         ("line", "agent_loop", CREATE), ("line", "agent_loop", CREATE + 2),
         ("line", "agent_loop", CREATE + 3), ("line", "agent_loop", CREATE + 4),
         ("return", "agent_loop", CREATE + 4)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_each_await_is_one_step_and_the_tools_interleave(roots, backend):
    trace = record("aagent", "tools", "both", roots=roots, backend=backend)
    assert (trace["status"], trace["stdout"], trace["backend"]) == ("finished", ANSWER, backend)
    assert AWAIT_HANDLER == 23 and steps_of(trace) == STEPS
    assert trace["result"] == repr(ANSWER.strip())


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_async_model_and_tool_calls_are_captured_once(roots, backend):
    trace = record("aagent", "tools", "both", roots=roots, backend=backend)
    agent, steps = trace["agent"], trace["steps"]
    assert [(steps[c["step"]]["line"], c["stop_reason"], c["new"]) for c in agent["calls"]] == \
        [(CREATE, "tool_use", 1), (CREATE, "end_turn", 2)]
    tools = [(t["name"], t["input"], t["result"], t["error"]) for t in agent["tools"]]
    assert tools == [("read_file", {"path": "notes.txt"}, "contents of notes.txt", False),
                     ("count_words", {"text": "one two three"}, "3", False)]
    # a tool call starts at its caller's await and ends at its return step, after the
    # suspensions at its own await
    for tool, fn in zip(agent["tools"], ("read_file", "count_words")):
        assert (steps[tool["step"]]["line"], steps[tool["ret"]]["event"],
                steps[tool["ret"]]["fn"]) == (AWAIT_HANDLER, "return", fn)
    assert agent["messages"][-1] == ["assistant", [ANSWER.strip()]]


def test_the_stack_shows_the_task_and_the_tasks_awaiting_it(roots):
    trace = record("aagent", "tools", "both", roots=roots)
    steps = trace["steps"]
    read = next(s for s in steps if s["fn"] == "read_file" and s["event"] == "line")
    assert names(trace, read) == ["<module>", "Task-1", "agent_loop", "Task-2", "run_tool",
                                  "read_file"]
    count = next(s for s in steps if s["fn"] == "count_words")
    assert names(trace, count)[3:] == ["Task-3", "run_tool", "count_words"]
    outer = trace["stacks"][read["stack"]]
    assert outer[1] == {"name": "Task-1", "task": True, "hidden": True}
    assert outer[2] == {"name": "agent_loop", "line": GATHER, "frame": 1, "hidden": False}
    assert read["depth"] == len(outer) == 5
    loop = steps[0]
    assert names(trace, loop) == ["<module>", "Task-1", "agent_loop"] and loop["depth"] == 2
    assert not any(f.get("file", "").endswith(("runners.py", "base_events.py", "events.py"))
                   for stack in trace["stacks"] for f in stack)


def test_subagents_in_tasks_are_conversations_one_level_deeper(roots):
    trace = record("asub", "both", "split", roots=roots)
    assert trace["stdout"] == "done: read a / done: read b\n"
    agent = trace["agent"]
    assert agent["conversations"] == [{"depth": 0, "parent": None}, {"depth": 1, "parent": 0},
                                      {"depth": 1, "parent": 0}]
    assert [c["conversation"] for c in agent["calls"]] == [0, 1, 2]


def test_a_fork_answers_the_awaited_model_call(roots):
    fork = {"call": "model:2", "value": {"content": "forked", "stop_reason": "end_turn"}}
    trace = record("aagent", "tools", "both", roots=roots, fork=fork)
    assert trace["stdout"] == "forked\n" and trace["fork"] == {"call": "model:2",
                                                               "applied": True}


def test_asyncio_tools_run_on_the_runs_clock_without_standins(roots):
    trace = record("atools", "all", "normal", roots=roots)
    assert trace["status"] == "finished"
    # 1 s in the lock, 2 s to the timeout, 0.5 s to wait_for's: virtual, and exact
    assert trace["stdout"] == \
        "(['noted', 'producing', 0, 1, 2, 'timed out', 'gave up'], 3.5)\n"
    stacks = {tuple(f["name"] for f in stack) for stack in trace["stacks"]}
    # a callback the loop runs is in no task: the loop's own frames are left out
    noted = next(s for s in trace["steps"] if s["fn"] == "noted")
    assert names(trace, noted) == ["<module>", "noted"] and noted["depth"] == 1
    # wait_for runs its awaitable in the caller's task (3.12's, on 3.11 too)
    assert ("<module>", "Task-1", "main") in stacks
    assert ("<module>", "Task-1", "main", "Task-5") not in stacks
    again = record("atools", "all", "normal", roots=roots)
    assert again["steps"] == trace["steps"] and again["stacks"] == trace["stacks"]


def test_a_loop_left_with_nothing_to_do_stops_the_program(roots):
    trace = record("atools", "stuck", "normal", roots=roots)
    assert trace["status"] == "exception"
    assert trace["message"] == f"RuntimeError: {aio.DEADLOCK}"


def test_asyncio_is_put_back_after_a_run(roots):
    def state():
        return (asyncio.run, asyncio.events._event_loop_policy, asyncio.wait_for,
                asyncio.events._get_running_loop())

    before = state()
    record("aagent", "tools", "both", roots=roots)
    assert state() == before
    assert not isinstance(asyncio.events._event_loop_policy, aio.Policy)
    loop = asyncio.new_event_loop()
    assert not isinstance(loop, aio.Loop)
    loop.close()


def test_the_loop_names_tasks_per_run_and_runs_executor_calls_at_once():
    aio.enter()
    try:
        async def main():
            task = asyncio.create_task(asyncio.sleep(0))
            named = asyncio.create_task(asyncio.sleep(0), name="mine")
            await asyncio.gather(task, named)
            moved = await asyncio.to_thread(lambda: "here")
            return asyncio.current_task().get_name(), task.get_name(), named.get_name(), moved
        assert asyncio.run(main()) == ("Task-1", "Task-2", "mine", "here")
        assert isinstance(asyncio.new_event_loop(), aio.Loop)
    finally:
        aio.leave()


def context(namespace):
    return types.SimpleNamespace(ids=Ids(), namespace=namespace, model="reply")


def test_async_clients_answer_as_the_sync_ones():
    def reply(messages, **request):
        return "hi" if "messages" not in request else None

    anthropic_module = anthropic.build(context({"reply": reply}))["anthropic"]
    openai_module = openai.build(context({"reply": reply}))["openai"]

    async def main():
        async with anthropic_module.AsyncAnthropic(api_key="k") as client:
            message = await client.messages.create(model="m", messages=[])
        chat = openai_module.AsyncOpenAI()
        completion = await chat.chat.completions.create(model="g", messages=[])
        await chat.close()
        return message, completion

    aio.enter()   # a loop of the run's (the tests' process may have one running)
    try:
        message, completion = asyncio.run(main())
    finally:
        aio.leave()
    assert (message.content[0].text, message.model, message.id) == ("hi", "m", "msg_001")
    assert completion.choices[0].message.content == "hi" and completion.model == "g"
    assert repr(anthropic_module.AsyncAnthropic) == "<class 'anthropic.AsyncAnthropic'>"
    assert repr(openai_module.AsyncOpenAI) == "<class 'openai.AsyncOpenAI'>"
    with anthropic_module.Anthropic() as client:
        assert client.messages.create(messages=[]).content[0].text == "hi"
    codes = set(anthropic.MODEL_CODES) | set(openai.MODEL_CODES)
    assert anthropic.AsyncMessages.create.__code__ in codes
    assert openai.AsyncCompletions.create.__code__ in codes
    assert sys.modules.get("anthropic") is not anthropic_module


def test_a_fork_answers_an_async_tool_call(roots):
    fork = {"call": "tool:1", "value": "forged"}
    trace = record("aagent", "tools", "both", roots=roots, fork=fork)
    assert trace["status"] == "finished" and trace["fork"]["applied"]
    tools = trace["agent"]["tools"]
    assert [(t["name"], t["result"]) for t in tools] == [("read_file", "forged"),
                                                         ("count_words", "3")]
    assert "read_file" not in {s["fn"] for s in trace["steps"]}
