"""Lessons for `loopstep doctor`, written into a lessons root of a test's own: one block
that plants every source of difference a run can have — the clock, an id, randomness, a
set of strings' order, the environment and a real file — one that has none, and a lesson
that asks for the real clock (two runs differ)."""
from pathlib import Path

SOURCE = '''import os
import random
import time
import uuid


def planted(path):
    stamp = int(time.time())
    ticket = uuid.uuid4().hex[:8]
    roll = random.randint(1, 1000)
    names = list({"alpha", "beta", "gamma", "delta", "epsilon", "zeta"})
    home = os.environ.get("HOME", "")
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    print(stamp, ticket, roll, names, home, text)
    return roll


def plain(count):
    total = 0
    for n in range(count):
        total += n
    print(total)
    return total
'''
REAL = '''import time


def stamped():
    stamp = time.time_ns()
    print(stamp)
    return stamp
'''


def _toml(name, source, blocks, world=""):
    found = [f'title = {{zh = "{name}", en = "{name}"}}',
             f'summary = {{zh = "{name}", en = "{name}"}}',
             f'setup = "{name}/setup.py"', f'modules = ["{name}/{source}"]', world,
             '[[presets]]\nname = "one"\nzh = "一"\nen = "One"']
    for symbol, entry in blocks:
        found.append(f'[[blocks]]\nsymbol = "{symbol}"\nsource = "{name}/{source}"\n'
                     f'entry = """{entry}"""')
    return "\n".join(found) + "\n"


def make_doctor_lessons(root: Path, real_file: Path) -> Path:
    """Write the lessons `planted` and `realclock` under ``root``; ``real_file``: the file
    outside the run's folder `planted` reads. Returns the root."""
    lesson = root / "planted"
    lesson.mkdir(parents=True)
    (lesson / "code.py").write_text(SOURCE, "utf-8")
    (lesson / "setup.py").write_text(f"PATH = {str(real_file)!r}\n", "utf-8")
    (lesson / "lesson.toml").write_text(_toml("planted", "code.py", [
        ("planted", "planted(PATH)"), ("plain", "plain(4)")]), "utf-8")
    other = root / "realclock"
    other.mkdir()
    (other / "code.py").write_text(REAL, "utf-8")
    (other / "setup.py").write_text("", "utf-8")
    (other / "lesson.toml").write_text(_toml("realclock", "code.py", [("stamped", "stamped()")],
                                             '[world]\nreal = ["clock"]'), "utf-8")
    return root
