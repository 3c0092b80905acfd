"""The edit window held by identity (runtime/agent/sameness.py) tells no other change than
comparing the copies at every step: each edit below, made after a quiet step (the window's
sameness taken), is reported as the copies report it — with the sameness and without it
(``take`` giving None) — and as expected."""
import pytest

from loopstep.runtime.agent import origins as origins_module
from loopstep.runtime.agent.origins import EDIT_WINDOW, FREEZE_ITEMS, Origins


class _Builder:
    class cols:
        event = bytearray(b"\x01" * 10)
    frames = {}
    agent_watch = None


class _Frame:
    f_back = None


class Block:
    """An SDK-like content block: compared by its attributes."""

    def __init__(self, text):
        self.type = "text"
        self.text = text
        self.meta = {"k": 1}


def conversation(items=4):
    deep = {"level": {"below": {"x": 0}}}
    return [
        {"role": "user", "content": "task"},
        {"role": "assistant", "content": [Block("0"), {"type": "text", "text": "0", "meta": deep}]},
        {"role": "user", "content": ({"type": "tool_result", "content": "out"},)},
        {"role": "user", "content": [{"type": "text", "text": str(i)} for i in range(items)],
         "score": float("nan")},
    ]


def _set(target, key, value):
    target[key] = value


def _swap_key(d):
    d["body"] = d.pop("content")   # the last key: the values stay in their order


def _reorder(d):
    d["role"] = d.pop("role")


EDITED_1 = [[13, "edited", 1]]
EDITED_3 = [[13, "edited", 3]]
CASES = {
    "nothing": (lambda m: None, [None]),
    "appended after the sent ones": (lambda m: m.append({"role": "user"}), [None]),
    "a dict's value set": (lambda m: _set(m[1], "content", "x"), EDITED_1),
    "a list appended to": (lambda m: m[1]["content"].append("y"), EDITED_1),
    "a list's item replaced by an equal one": (
        lambda m: _set(m[1]["content"], 1, {"type": "text", "text": "0", "meta": m[1]["content"][1]["meta"]}),
        [None]),
    "a nested dict's value set": (lambda m: _set(m[1]["content"][1], "text", "z"), EDITED_1),
    "an object's attribute set": (lambda m: setattr(m[1]["content"][0], "text", "z"), EDITED_1),
    "an object's attribute set equal": (lambda m: setattr(m[1]["content"][0], "text", "0"),
                                        [None]),
    "an object's __dict__ replaced by an equal one": (
        lambda m: setattr(m[1]["content"][0], "__dict__", dict(vars(m[1]["content"][0]))),
        [None]),
    "an object's __dict__ replaced": (
        lambda m: setattr(m[1]["content"][0], "__dict__", {**vars(m[1]["content"][0]),
                                                           "text": "w"}), EDITED_1),
    "an object's attribute's dict edited, below the compared depth": (
        lambda m: _set(m[1]["content"][0].meta, "k", 2), [None]),
    "an object's attribute's dict replaced": (
        lambda m: setattr(m[1]["content"][0], "meta", {"k": 1}), EDITED_1),
    "a list's item replaced": (lambda m: _set(m[1]["content"], 1, {"type": "text"}), EDITED_1),
    "a message replaced by an equal one, then that one edited": (
        (lambda m: _set(m, 1, {**m[1], "content": list(m[1]["content"])}),
         lambda m: m[1]["content"].pop()), [[15, "edited", 1]]),
    "a key replaced, the value kept": (lambda m: _swap_key(m[1]), EDITED_1),
    "keys reordered": (lambda m: _reorder(m[1]), EDITED_1),
    "below the compared depth": (lambda m: _set(m[1]["content"][1]["meta"]["level"]["below"],
                                                "x", 1), [None]),
    "at the compared depth": (lambda m: _set(m[1]["content"][1]["meta"], "level", {}), EDITED_1),
    "a tuple's dict edited": (lambda m: _set(m[2]["content"][0], "content", "other"),
                              [[13, "edited", 2]]),
    "a NaN set again": (lambda m: _set(m[3], "score", m[3]["score"]), [None]),
    "a message replaced by an unequal one": (lambda m: _set(m, 1, {"role": "assistant"}),
                                             [[13, "replaced", 1]]),
}


LONG = FREEZE_ITEMS + 6   # a list longer than its copy describes
LONG_CASES = {
    "a long list's early item edited": (lambda m: _set(m[3]["content"][3], "text", "q"),
                                        EDITED_3),
    "a long list's item past the compared ones": (
        lambda m: _set(m[3]["content"][FREEZE_ITEMS + 2], "text", "q"), [None]),
    "a long list's length": (lambda m: m[3]["content"].pop(), EDITED_3),
}


def _changed(mutate, fast, monkeypatch, items=4):
    with monkeypatch.context() as patch:
        if not fast:
            patch.setattr(origins_module, "take", lambda *args: None)
        origins = Origins(_Builder())
        messages = conversation(items)
        origins.sent(0, _Frame(), messages, list(range(len(messages))), 0)
        origins.check(11)    # a quiet step: the window found unchanged
        took = bool(origins.watched[0].same)   # a Sameness: held; None or False: not
        for k, change in enumerate(mutate if type(mutate) is tuple else (mutate,)):
            change(messages)
            origins.check(14 + 2 * k)
        origins.check(20)
        return origins.changed, took


@pytest.mark.parametrize("case", CASES)
def test_an_edit_after_a_quiet_step_is_told_as_the_copies_tell_it(case, monkeypatch):
    mutate, expected = CASES[case]
    fast, took = _changed(mutate, True, monkeypatch)
    assert took              # the window held by identity after the quiet step
    slow, _ = _changed(mutate, False, monkeypatch)
    assert fast == slow == expected


@pytest.mark.parametrize("case", LONG_CASES)
def test_a_window_with_a_longer_list_than_compared_is_compared_at_each_step(case, monkeypatch):
    mutate, expected = LONG_CASES[case]
    fast, took = _changed(mutate, True, monkeypatch, LONG)
    assert not took          # its copy describes its first FREEZE_ITEMS items only
    slow, _ = _changed(mutate, False, monkeypatch, LONG)
    assert fast == slow == expected


def _calls(script, fast, monkeypatch, earlier=0):
    """Run ``script`` (each item a call's send, a step's check or an edit) against one
    conversation (after ``earlier`` other messages): what each call saw change, and whether
    the window was held after each send."""
    with monkeypatch.context() as patch:
        if not fast:
            patch.setattr(origins_module, "take", lambda *args: None)
        origins = Origins(_Builder())
        messages = [{"role": "user", "content": str(i)} for i in range(earlier)]
        messages += conversation()
        held, step = [], 11
        for what in script:
            if what == "send":
                origins.sent(0, _Frame(), messages, list(range(len(messages))),
                             0 if not origins.changed else len(messages))
                held.append(bool(origins.watched[0].same))
            elif what == "check":
                origins.check(step)
                step += 2
            else:
                what(messages)
        return origins.changed, held


def _reply(m):
    m.append({"role": "assistant", "content": [Block("1")]})
    m.append({"role": "user", "content": [{"type": "tool_result", "content": "more"}]})


@pytest.mark.parametrize("script, expected, carried", [
    (["send", "check", _reply, "send", "check", "check"], [None, None], [False, True]),
    (["send", "check", _reply, "send", "check",
      lambda m: m[1]["content"].pop(), "check"], [[14, "edited", 1]] * 2, [False, True]),
    (["send", "check", _reply, "send", "check",
      lambda m: _set(m[-1]["content"][0], "content", "x"), "check"],
     [None, [14, "edited", 5]], [False, True]),
    # an edit between a step and the next call: the window is not carried, and the edit is
    # seen at the next step, as the copies see it
    (["send", "check", lambda m: _set(m[1], "content", "x"), _reply, "send", "check"],
     [[12, "edited", 1], [12, "edited", 1]], [False, False]),
])
def test_a_call_carries_the_window_on_unless_it_changed(script, expected, carried, monkeypatch):
    fast, held = _calls(script, True, monkeypatch)
    slow, _ = _calls(script, False, monkeypatch)
    assert fast == slow
    assert fast == expected
    assert held == carried


def test_the_window_carried_on_slides_with_the_conversation(monkeypatch):
    """Longer than the window: a call's send drops its oldest messages and keeps the rest."""
    script = ["send", "check", _reply, "send", "check", lambda m: _set(m[-3], "score", 1.0),
              "check"]
    fast, held = _calls(script, True, monkeypatch, EDIT_WINDOW)
    slow, _ = _calls(script, False, monkeypatch, EDIT_WINDOW)
    assert fast == slow
    assert fast == [[14, "edited", EDIT_WINDOW + 3]] * 2
    assert held == [False, True]


def test_a_window_that_cannot_be_held_is_not_walked_again_at_each_step(monkeypatch):
    walked = []
    take = origins_module.take
    monkeypatch.setattr(origins_module, "take", lambda *args: walked.append(1) or take(*args))
    origins = Origins(_Builder())
    messages = conversation(LONG)
    origins.sent(0, _Frame(), messages, list(range(len(messages))), 0)
    for step in range(11, 21, 2):
        origins.check(step)
    assert origins.watched[0].same is False and len(walked) == 1
    messages[3]["content"].pop()     # still seen, the copies compared
    origins.check(22)
    assert origins.changed == [[21, "edited", 3]]
