"""The s06 functions shown and executed are byte-identical to the lesson text.

The lesson's text is kept in ``tests/fixtures/seeds`` (see its README for where it
came from); the sha256 of each function text is pinned as well.
"""

import hashlib
from pathlib import Path

import pytest

from loopstep.runtime.catalog.lessons import load_lesson
from loopstep.runtime.recorder import targets

SEED = Path(__file__).parent / "fixtures" / "seeds" / "000_73b60d6d11539d44.txt"

PINNED = {
    "child_tools": "269e35f4f8aeacc07f5bf869a24053ecaf691ec2c8b243eeeb26a5ed06af8814",
    "run_subagent": "a541a5b7086caa641323993ca08e9ac76399af8f69705932ed908a20a469ffa3",
    "task_result": "9d954620a70a89b1035eab7160c6c92c6104ded4bd8c763825d59390251d5d6b",
    "run_loop": "ccc1dcabd219fb478470054f471f1e7a9693bf05e7e7d9d24bc0d47b74a03317",
}


def sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seed_text():
    assert SEED.exists(), f"the lesson text is expected at {SEED}"
    return SEED.read_text("utf-8")


def seed_function(symbol):
    """A function's text as printed in the lesson: its block, or inside the setup code."""
    text = seed_text()
    header = f"s06/core/runtime.py · {symbol}"
    if header in text:
        start = text.index(f"def {symbol}(", text.index(header))
        return text[start:text.index("\n\n输出", start)]
    start = text.index(f"def {symbol}(")
    return text[start:text.index("\n\n\n# 调用入口", start)]


def seed_setup_blocks():
    """The lesson's three '教学准备与调用入口' setup texts, as printed."""
    text = seed_text()
    blocks = []
    marker = "断点只回放上方源码。\n\n"
    at = text.find(marker)
    while at != -1:
        start = at + len(marker)
        end = text.index("\n\n宿主只复制read_file", start)
        blocks.append(text[start:end])
        at = text.find(marker, end)
    return blocks


def lesson_function(symbol):
    lesson = load_lesson("s06")
    if symbol == "run_loop":
        source = lesson.read("s01/core/loop.py")
        return source[source.index("def run_loop("):].rstrip("\n")
    return lesson.block(symbol).text


@pytest.mark.parametrize("symbol", list(PINNED))
def test_pinned_hash(symbol):
    assert sha(lesson_function(symbol)) == PINNED[symbol]


@pytest.mark.parametrize("symbol", list(PINNED))
def test_same_as_seed(symbol):
    assert lesson_function(symbol) == seed_function(symbol)


@pytest.mark.parametrize("symbol", ["child_tools", "run_subagent", "task_result"])
def test_executed_text_is_displayed_text(symbol):
    lesson = load_lesson("s06")
    block = lesson.block(symbol)
    programs = lesson.programs(symbol, "normal")
    module = next(p for p in programs if p.path == block.source)
    assert module.text == lesson.files[block.source].read_bytes().decode("utf-8")
    lines = module.text.split("\n")
    assert "\n".join(lines[block.def_line - 1:block.end_line]) == block.text
    code = compile(module.text, module.path, "exec")
    (main,), traced = targets(code, block.parts)
    assert main.co_filename == block.source and main.co_firstlineno == block.def_line
    assert all(c.co_filename == block.source for c in traced)


def test_setup_and_entries_are_the_lessons():
    """The stub setup is the lesson's setup code without its scenario line; the
    entries are its call entries."""
    lesson = load_lesson("s06")
    blocks = seed_setup_blocks()
    assert len(blocks) == 3
    setup = lesson.read(lesson.setup)
    for printed, block in zip(blocks, lesson.blocks):
        body, entry = printed.split("\n\n\n# 调用入口\n")
        kept = [line for line in body.split("\n") if not line.startswith("scenario=")]
        head = "\n".join(kept)
        if block.symbol == "run_subagent":   # its setup also prints child_tools and run_loop
            head = head[:head.index("\ndef child_tools(")].rstrip("\n")
        assert setup.rstrip("\n") == head
        assert block.entry.rstrip("\n") == "# 调用入口\n" + entry
