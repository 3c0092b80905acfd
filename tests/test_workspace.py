"""The run's folder in the trace (runtime/workspace): its files at the start and each change,
seen through what the run did (open, pathlib, the stand-in shell's redirections, python
commands, removals), with the step and depth of the code that did it; and the gate's decisions."""

import textwrap

from loopstep.runtime.recorder import record
from loopstep.runtime.workspace import MAX_TEXT
from loopstep.runtime.workspace.watch import describe

SOURCE = textwrap.dedent('''\
    import os
    import subprocess
    from pathlib import Path


    def work():
        open("a.txt", "w").write("one\\n")
        Path("notes/b.txt").parent.mkdir()
        Path("notes/b.txt").write_text("two\\n")
        subprocess.run("echo three >> a.txt", shell=True)
        subprocess.run("python -c \\"open('c.bin', 'wb').write(bytes(3))\\"", shell=True)
        os.remove("keep.txt")
        Path("big.txt").write_text("x" * 70000)
        return sorted(os.listdir("."))
''')
TOML = textwrap.dedent('''\
    title.zh = "工作区"
    title.en = "Workspace"
    summary.zh = "写文件。"
    summary.en = "Writes files."
    setup = "ws/setup.py"
    modules = ["ws/code.py"]
    [standins]
    modules = ["subprocess"]
    files = { "keep.txt" = "kept\\n", "same.txt" = "same\\n" }
    [[presets]]
    name = "normal"
    zh = "正常"
    en = "Normal"
    [[blocks]]
    symbol = "work"
    source = "ws/code.py"
    presets = ["normal"]
    entry = "print(work())\\n"
''')


def _lesson(tmp_path):
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "lesson.toml").write_text(TOML, encoding="utf-8")
    (folder / "code.py").write_text(SOURCE, encoding="utf-8")
    (folder / "setup.py").write_text("", encoding="utf-8")
    return [str(tmp_path)]


def test_every_kind_of_write_is_recorded_at_the_step_that_made_it(tmp_path):
    trace = record("ws", "work", "normal", roots=_lesson(tmp_path))
    assert trace["status"] == "finished", trace["message"]
    workspace = trace["workspace"]
    assert workspace["files"] == {"keep.txt": {"size": 5, "text": "kept\n"},
                                  "same.txt": {"size": 5, "text": "same\n"}}
    line_of = {s: trace["steps"][s]["line"] for s in range(len(trace["steps"]))}
    seen = [(line_of[step], path, depth, file) for step, path, depth, file in workspace["changes"]]
    big = seen[-1][3]
    assert seen[:-1] == [
        (2, "a.txt", 0, {"size": 4, "text": "one\n"}),
        (4, "notes/b.txt", 0, {"size": 4, "text": "two\n"}),
        (5, "a.txt", 0, {"size": 10, "text": "one\nthree\n"}),
        (6, "c.bin", 0, {"size": 3, "binary": True}),
        (7, "keep.txt", 0, None),
    ]
    assert (seen[-1][:3], big["size"], len(big["text"]), big["cut"]) == \
        ((8, "big.txt", 0), 70000, MAX_TEXT, True)


def test_file_versions_are_described_as_text_binary_or_cut():
    assert describe("苦猿".encode()) == {"size": 6, "text": "苦猿"}
    assert describe(b"\xff\xfe") == {"size": 2, "binary": True}
    assert describe(b"a" * (MAX_TEXT + 1))["cut"] is True


def test_a_lesson_without_a_folder_has_no_workspace():
    assert "workspace" not in record("s06", "child_tools", "normal")


def test_the_day56_child_writes_at_depth_one_and_the_gate_decides_for_both_levels():
    trace = record("s06-day56", "loop", "slugify")
    tools = trace["agent"]["tools"]
    write = next(t for t in tools if t["name"] == "write_file")
    assert [c[:3] for c in trace["workspace"]["changes"]] == \
        [[write["step"], "s06_subagent/example/string_tools.py", 1]]
    assert [(tool, decision, depth) for _, tool, decision, depth in trace["gate"]] == [
        ("task", "allow", 0), ("write_file", "allow", 1), ("bash", "allow", 1),
        ("bash", "allow", 0)]
    assert [g[0] for g in trace["gate"]] == [t["step"] for t in tools]
    dangerous = record("s06-day56", "loop", "dangerous")
    assert [g[1:] for g in dangerous["gate"]] == [["task", "allow", 0], ["bash", "deny", 1]]
    assert dangerous["workspace"]["changes"] == []


GATE_SOURCE = textwrap.dedent('''\
    def gate(name):
        return ANSWERS[name]


    def run_tool(name):
        if gate(name) in (True, "allow"):
            return "ran " + name
        return "refused " + name


    def work():
        return [run_tool(name) for name in ANSWERS]
''')


def test_each_call_of_the_gate_is_a_decision_read_from_its_return_value(tmp_path):
    roots = _lesson(tmp_path)
    folder = tmp_path / "ws"
    (folder / "code.py").write_text(GATE_SOURCE, encoding="utf-8")
    (folder / "setup.py").write_text(
        'ANSWERS = {"bash": False, "glob": True, "read": "ask", "edit": "deny", "odd": None}\n',
        encoding="utf-8")
    toml = (folder / "lesson.toml").read_text(encoding="utf-8")
    (folder / "lesson.toml").write_text(toml + '[agent]\ntools = ["run_tool"]\ngate = "gate"\n',
                                        encoding="utf-8")
    trace = record("ws", "work", "normal", roots=roots)
    assert [g[1:] for g in trace["gate"]] == [["bash", "deny", 0], ["glob", "allow", 0],
                                              ["read", "ask", 0], ["edit", "deny", 0]]
    assert [g[0] for g in trace["gate"]] == [t["step"] for t in trace["agent"]["tools"][:4]]
