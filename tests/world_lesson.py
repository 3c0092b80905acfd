"""Lessons for the world's tests (runtime/world/): each source of time, randomness and
ids the run replaces, read in a fresh run through the custom scenario (the setup names
the expression: ``EXPR = "time.time()"``), in CPython and in Pyodide alike."""

from pathlib import Path

TOML = """title = {{zh = "世界", en = "World"}}
summary = {{zh = "世界", en = "World"}}
setup = "{id}/setup.py"
modules = ["{id}/code.py"]
[[presets]]
name = "normal"
zh = "正常"
en = "Normal"
[[blocks]]
symbol = "main"
source = "{id}/code.py"
presets = ["normal"]
entry = '''{entry}'''
{extra}
"""

SOURCES_CODE = '''import datetime
import os
import random
import secrets
import tempfile
import time
import uuid
from time import time as imported_time


def main(expr):
    return eval(expr)
'''

# (expression, its repr in a run of the default world): the virtual clock starts at
# 2026-01-01T09:00:00Z and moves 1 ms per reading; everything random comes from seed 0
SOURCES = [
    ("time.time()", "1767258000.0"),
    ("time.time_ns()", "1767258000000000000"),
    ("time.monotonic()", "0.0"),
    ("time.monotonic_ns()", "0"),
    ("time.perf_counter()", "0.0"),
    ("time.perf_counter_ns()", "0"),
    ("(time.time(), time.time())", "(1767258000.0, 1767258000.001)"),
    ("(time.sleep(3600), time.time())[1]", "1767261600.0"),
    ("[(time.sleep(x), 1)[1] for x in (2, 0.5, True)]", "[1, 1, 1]"),
    ("tuple(time.localtime())[:6]", "(2026, 1, 1, 9, 0, 0)"),
    ("tuple(time.gmtime())[:6]", "(2026, 1, 1, 9, 0, 0)"),
    ("time.strftime('%Y-%m-%d %H:%M:%S')", "'2026-01-01 09:00:00'"),
    ("time.ctime()", "'Thu Jan  1 09:00:00 2026'"),
    ("time.asctime()", "'Thu Jan  1 09:00:00 2026'"),
    ("imported_time()", "1767258000.0"),
    ("datetime.datetime.now()", "datetime.datetime(2026, 1, 1, 9, 0)"),
    ("datetime.datetime.utcnow()", "datetime.datetime(2026, 1, 1, 9, 0)"),
    ("datetime.datetime.today()", "datetime.datetime(2026, 1, 1, 9, 0)"),
    ("datetime.datetime.now(datetime.timezone.utc)",
     "datetime.datetime(2026, 1, 1, 9, 0, tzinfo=datetime.timezone.utc)"),
    ("datetime.date.today()", "datetime.date(2026, 1, 1)"),
    ("datetime.datetime.fromtimestamp(0)", "datetime.datetime(1970, 1, 1, 0, 0)"),
    ("isinstance(datetime.datetime.now(), datetime.datetime)", "True"),
    ("isinstance(datetime.datetime(2020, 1, 1), datetime.date)", "True"),
    ("random.random()", "0.8444218515250481"),
    ("random.randint(1, 10**6)", "885441"),
    ("(random.seed(), random.random())[1]", "0.4320257388509132"),
    ("random.Random().random()", "0.4320257388509132"),
    ("uuid.uuid4()", "UUID('79452b6c-1e82-49d1-b202-88a624990a54')"),
    ("uuid.uuid1()", "UUID('40ab6800-e6f0-11f0-9b0a-938b47cae21d')"),
    ("os.urandom(8).hex()", "'79452b6c1e8259d1'"),
    ("secrets.token_hex(8)", "'79452b6c1e8259d1'"),
    ("random.SystemRandom().random()", "0.47371169470930075"),
    ("os.path.basename(tempfile.mkstemp(dir='.')[1])", "'tmpzfhvwrs8'"),
]


def write(root, lesson_id, code, *, setup="", entry="", extra=""):
    folder = Path(root) / lesson_id
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "code.py").write_text(code, "utf-8")
    (folder / "setup.py").write_text(setup, "utf-8")
    (folder / "lesson.toml").write_text(TOML.format(id=lesson_id, entry=entry, extra=extra),
                                        "utf-8")
    return {f"{lesson_id}/{p.name}": str(p) for p in folder.iterdir()}


def write_sources(root, lesson_id="sources", extra=""):
    """The sources lesson: its runs have a folder of their own ([standins])."""
    return write(root, lesson_id, SOURCES_CODE, entry="print(repr(main(EXPR)))",
                 extra="[standins]\n" + extra)


def setup_of(expr):
    return f"EXPR = {expr!r}\n"
