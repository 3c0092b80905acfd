"""Where conversation messages came from (the agent part's "added" and "changed",
runtime/agent/origins.py): the statement that put each message into its list, and the
first statement that changed a message a call sent — removed, replaced or edited;
appending after the sent messages is no change."""

from pathlib import Path

from loopstep.runtime.recorder import record

FIXTURES = Path(__file__).parent / "browser" / "fixture_lessons"


def lines(trace, steps):
    return [None if at is None else trace["steps"][at]["line"] for at in steps]


def test_each_message_is_added_at_the_statement_that_appended_it():
    trace = record("multitool", "agent_loop", "normal", roots=[FIXTURES])
    agent = trace["agent"]
    roles = [m[0] for m in agent["messages"]]
    assert roles == ["user", "assistant", "user", "assistant"]
    # line 2 builds the list, line 5 appends the answer, line 14 the tool results;
    # the last answer never entered a list that a call was sent
    assert lines(trace, agent["added"]) == [2, 5, 14, None]
    # line 5 appends the answer after each call: nothing that was sent changed
    assert agent["changed"] == [None, None]


def test_a_list_built_by_code_not_displayed_falls_back_to_the_nearest_displayed_step():
    trace = record("s06", "run_subagent", "normal")
    agent = trace["agent"]
    steps = trace["steps"]
    # run_loop (not displayed) builds the history; the displayed statement that ran it
    first = agent["added"][0]
    assert steps[first]["line"] == 15 and first <= agent["calls"][0]["step"]
    # the tool results enter the history after `execute` returned: its return step
    for index in (2, 4):
        assert steps[agent["added"][index]]["event"] == "return"
        assert steps[agent["added"][index]]["frame"] in {s["frame"] for s in steps
                                                        if s["line"] == 14}
    # each answer is appended by run_loop once the call returned: no sent message changed
    assert agent["changed"] == [None, None, None]
    assert [agent["added"][i] for i in (1, 3)] == [c["ret"] for c in agent["calls"][:2]]


def test_a_list_held_by_a_displayed_frame_is_read_back_to_its_first_statement():
    trace = record("agent_markup", "long_chat", "normal", roots=[FIXTURES])
    agent = trace["agent"]
    sent = agent["calls"][-1]["messages"]
    added = lines(trace, [agent["added"][i] for i in sent])
    # line 2 builds the list; each turn appends at lines 4 and 5 before the call
    assert added == [2] + [4, 5] * 8
    assert agent["changed"] == [None] * 8


def test_a_sent_message_edited_replaced_or_removed_is_seen_at_its_statement():
    trace = record("compacting", "agent_loop", "normal", roots=[FIXTURES])
    agent = trace["agent"]
    changes = [c and (trace["steps"][c[0]]["line"], c[1], c[2]) for c in agent["changed"]]
    assert changes == [
        None,                    # one message sent; the loop only appended after it
        (17, "edited", 2),       # the tool result's content set to "[cleared]" in place
        (19, "replaced", 3),     # messages[3] = a summary
        (21, "removed", 5),      # del messages[5:7]
        None,
    ]
    for call, change in zip(agent["calls"], agent["changed"]):
        assert change is None or change[0] > call["step"]


def test_watching_a_list_changed_in_place():
    """A replaced last item, a pop and an append: each change is seen at its statement;
    the sent message replaced is the change of the call."""
    from loopstep.runtime.agent.origins import Origins

    class Builder:
        class cols:
            event = bytearray(b"\x01" * 10)
        frames = {}
        agent_watch = None

    builder = Builder()
    origins = Origins(builder)
    messages = ["a", "b"]
    origins.sent(0, _Frame(), messages, [0, 1], 0)
    assert builder.agent_watch == origins.check
    messages[-1] = "c"
    origins.check(12)
    messages.pop()
    origins.check(15)
    messages.append("d")
    origins.check(17)
    assert origins.watched[0].added_at == [9, 16]
    assert origins.changed == [[11, "replaced", 1]]
    origins.sent(0, _Frame(), messages, [0, 2], 1)
    assert origins.added == {0: 9, 1: 9, 2: 16}
    assert origins.result(3) == ([9, 9, 16], [[11, "replaced", 1], None])


def test_a_sent_message_edited_deep_inside_or_an_equal_replacement():
    from loopstep.runtime.agent.origins import Origins

    class Builder:
        class cols:
            event = bytearray(b"\x01" * 10)
        frames = {}
        agent_watch = None

    origins = Origins(Builder())
    messages = [{"role": "user", "content": [{"type": "tool_result", "content": "long"}]}]
    origins.sent(0, _Frame(), messages, [0], 0)
    messages.append({"role": "assistant", "content": "x"})
    messages[0] = {"role": "user", "content": [{"type": "tool_result", "content": "long"}]}
    origins.check(12)          # appended, and replaced by an equal message: nothing sent changed
    assert origins.changed == [None]
    messages[0]["content"][0]["content"] = "[cleared]"
    origins.check(14)
    assert origins.changed == [[13, "edited", 0]]


def test_edits_in_place_are_looked_for_in_the_latest_sent_messages_removals_everywhere():
    """A step compares the latest EDIT_WINDOW sent messages with their copies, so its cost
    does not grow with the conversation; a removal or a replacement is seen anywhere."""
    from loopstep.runtime.agent.origins import EDIT_WINDOW, Origins

    class Builder:
        class cols:
            event = bytearray(b"\x01" * 10)
        frames = {}
        agent_watch = None

    def conversation():
        return [{"role": "user", "content": [{"type": "text", "text": str(i)}]}
                for i in range(EDIT_WINDOW + 4)]

    older, newer = 0, EDIT_WINDOW + 3
    origins = Origins(Builder())
    messages = conversation()
    origins.sent(0, _Frame(), messages, list(range(len(messages))), 0)
    messages[older]["content"][0]["text"] = "[cleared]"       # older than the window
    origins.check(12)
    assert origins.changed == [None]
    messages[newer]["content"][0]["text"] = "[cleared]"       # within it
    origins.check(14)
    assert origins.changed == [[13, "edited", newer]]

    origins = Origins(Builder())
    messages = conversation()
    origins.sent(0, _Frame(), messages, list(range(len(messages))), 0)
    messages[older] = {"role": "user", "content": "another"}  # replaced, however old
    origins.check(12)
    assert origins.changed == [[11, "replaced", older]]


class _Frame:
    f_back = None
