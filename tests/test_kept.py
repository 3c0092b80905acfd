"""A container's VALUE kept between steps (runtime/trace/kept.py): always the VALUE
``values.encode`` gives, earlier VALUEs never changed, and a step's work bounded by what
the VALUE shows, not by the container's length (counted, not timed)."""

import copy

import pytest

from loopstep.runtime.recorder import record
from loopstep.runtime.trace import kept as kept_module, values
from loopstep.runtime.trace.kept import Kept
from loopstep.runtime.trace.values import MAX_ITEMS, Folder, encode


class Shown:
    """An object whose repr changes in place and counts its calls."""

    calls = 0

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        Shown.calls += 1
        return f"Shown({self.text})"


def _history(n):
    return [{"role": "user" if k % 2 == 0 else "assistant",
             "content": [{"type": "text", "text": f"message {k} " + "x" * 300}]}
            for k in range(n)]


def _cyclic():
    a = [1, 2]
    a.append(a)
    return {"a": a, "b": [a]}


# (value, [changes]): each change mutates the value in place; None changes nothing
CASES = {
    "append past the shown items": (_history(80), [
        lambda v: v.append({"role": "user", "content": "late"}), None,
        lambda v: v.pop(), lambda v: v.extend(_history(3))]),
    "append within them": (_history(3), [
        lambda v: v.append({"role": "user", "content": "next"}), lambda v: v.clear()]),
    "edit a shown message in place": (_history(60), [
        lambda v: v[0]["content"][0].update(text="edited"),
        lambda v: v[49].update(role="tool"),
        lambda v: v[0].pop("role"), lambda v: v[0].setdefault("role", "user")]),
    "edit past the shown messages": (_history(60), [
        lambda v: v[55]["content"].append("unseen"), lambda v: v.insert(0, "first")]),
    "replace by an equal object": ([[1, 2], "a" * 300], [
        lambda v: v.__setitem__(0, [1, 2]), lambda v: v.__setitem__(1, "a" * 300)]),
    "dict order and keys": ({"a": 1, "b": [1], "c": {"d": 2}}, [
        lambda v: v.update(a=v.pop("a")), lambda v: v["c"].update(e=[3]),
        lambda v: v["b"].append(2), lambda v: v.__setitem__("b", v["b"])]),
    "deeper than shown": ([[[[[[1]]]]]], [
        lambda v: v[0][0][0][0].append(2), lambda v: v[0][0][0][0][0].append(3),
        lambda v: v[0][0][0].append(4)]),
    "past the node budget": ([[k] * 40 for k in range(40)], [
        lambda v: v[39].append(1), lambda v: v[0].append(1), lambda v: v[39].append(1),
        lambda v: v[-1].clear()]),
    "reprs that change": ([Shown("a"), {"k": Shown("b")}, (Shown("c"),)], [
        lambda v: setattr(v[0], "text", "A"), None,
        lambda v: setattr(v[2][0], "text", "C" * 300), lambda v: v[1].clear()]),
    "sets": ({"s": {3, 1, 2}, "o": {Shown("x")}, "f": frozenset({"a"})}, [
        lambda v: v["s"].add(0), lambda v: next(iter(v["o"])).__setattr__("text", "y"),
        lambda v: v["s"].discard(3), lambda v: v.__setitem__("f", frozenset({"b"}))]),
    "a tuple of lists": (([1], [2]), [lambda v: v[0].append(1), lambda v: v[1].clear()]),
    "cycles": (_cyclic(), [lambda v: v["a"].append(3), lambda v: v["b"].append(v)]),
    "empty": ([], [lambda v: v.append([]), lambda v: v[0].append({})]),
    "long strings": (["x" * 500, {"k": "y" * 250}], [
        lambda v: v.__setitem__(0, "z" * 500), lambda v: v[1].update(k="short")]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_the_kept_value_is_the_encoders_and_earlier_ones_stay(name):
    value, changes = CASES[name]
    value = copy.deepcopy(value)
    kept = Kept(value, None)
    assert kept.encoded == encode(value)
    made = [(kept.encoded, copy.deepcopy(kept.encoded))]
    for change in changes:
        if change is not None:
            change(value)
        before = kept.encoded
        now = kept.update(None)
        assert now == encode(value)
        if change is None:
            assert now is before   # nothing changed: no new VALUE
        made.append((now, copy.deepcopy(now)))
        assert all(was == text for was, text in made), "an earlier VALUE changed"


def test_the_folder_shown_changes_every_text():
    folder = Folder()
    value = [["/real/a.txt"], "/real/b.txt"]
    kept = Kept(value, folder)
    folder.show("/real", "/tmp/run")
    assert kept.update(folder) == encode(value, folder) != encode(value)
    folder.forget()
    assert kept.update(folder) == encode(value)


def test_each_repr_runs_once_per_step_as_when_encoding():
    value = [Shown("a"), [Shown("b")], {"k": Shown("c")}]
    kept = Kept(value, None)
    Shown.calls = 0
    kept.update(None)                 # nothing changed
    value[1].append(Shown("d"))       # a container changed: encoded again
    kept.update(None)
    value[0].text = "z"               # a repr changed: its node copied
    kept.update(None)
    assert Shown.calls == 3 + 4 + 4


_items = values._items


def test_a_set_of_objects_is_sorted_once_per_step_by_the_encoder(monkeypatch):
    value = [{Shown("a"), Shown("b")}]
    kept = Kept(value, None)
    kinds = []
    monkeypatch.setattr(values, "_items", lambda kind, item: kinds.append(kind) or
                        _items(kind, item))
    kept.update(None)
    kept.update(None)
    # its order is its items' __lt__: each step asks it once (encoding it), never to compare
    assert kinds.count("set") == 2


HOLD = '''
def hold(size):
    messages = [{"role": "user", "content": [{"type": "text", "text": "x" * 300}]}
                for _ in range(size)]
    total = 0
    for number in range(30):
        total += number
        messages.append({"role": "assistant", "content": "ok"})
    return total
'''


def _lesson(tmp_path):
    folder = tmp_path / "hold"
    folder.mkdir()
    (folder / "setup.py").write_text("SIZE = 0\n", "utf-8")
    (folder / "code.py").write_text(HOLD, "utf-8")
    (folder / "lesson.toml").write_text(
        'title = {zh = "测", en = "T"}\nsummary = {zh = "测", en = "T"}\n'
        'setup = "hold/setup.py"\nmodules = ["hold/code.py"]\n'
        '[[presets]]\nname = "normal"\nzh = "正常"\nen = "Normal"\n'
        '[[blocks]]\nsymbol = "hold"\nsource = "hold/code.py"\nentry = "hold(SIZE)"\n', "utf-8")
    return tmp_path


def test_a_step_costs_what_the_value_shows_not_the_history_length(tmp_path, monkeypatch):
    """A history of 600 messages beside 90 steps that append to it: the recorder encodes
    no more items than for a history of 6 (whose appends show), and compares as many per
    step as for one of 100 (both past the shown items): re-encoding the history at each
    step, or comparing all of it, fails this."""
    root = _lesson(tmp_path)
    counts = {"encoded": 0, "compared": 0, "updates": 0}

    def items(kind, item):
        shown = _items(kind, item)
        counts["encoded"] += len(shown)
        return shown

    real_update = Kept.update

    def update(self, folder):
        counts["updates"] += 1
        counts["compared"] += len(self.visits) + len(self.leaves)
        return real_update(self, folder)

    monkeypatch.setattr(values, "_items", items)
    monkeypatch.setattr(kept_module.Kept, "update", update)
    seen = {}
    for size in (6, 100, 600):
        counts.update(encoded=0, compared=0, updates=0)
        trace = record("hold", "hold", "custom", roots=[root], setup=f"SIZE = {size}\n")
        assert trace["status"] == "finished", trace.get("message")
        lengths = [s["set"]["messages"][1] for s in trace["steps"] if "messages" in s["set"]]
        assert lengths == list(range(size, size + 31))   # every append shown
        seen[size] = dict(counts)
    assert seen[600]["encoded"] <= seen[6]["encoded"]
    assert seen[600]["updates"] == seen[100]["updates"] >= 90
    assert seen[600]["compared"] == seen[100]["compared"]
    assert seen[600]["compared"] / seen[600]["updates"] < 4 * MAX_ITEMS
