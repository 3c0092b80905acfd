"""The run's world in CPython (runtime/world/): every source of time, randomness and ids
a run replaces, with the value a run of the default world reads (the table is
tests/world_lesson.py, which the Pyodide test reads too); everything put back after the
run; the ``[world]`` table's keys; the hash seed a lesson pins."""

import datetime
import os
import random
import secrets
import tempfile
import threading
import time
import uuid

import pytest
import world_lesson

from loopstep.runtime.catalog.lessons import LessonError, load_lesson
from loopstep.runtime.recorder import RunRequest, record, record_request
from loopstep.runtime.world import WorldSpec, hashing


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    folder = tmp_path_factory.mktemp("world")
    world_lesson.write_sources(folder)
    world_lesson.write_sources(folder, "later", '[world]\nclock = '
                               '"2030-06-01T12:30:00+02:00"\nseed = 7\n')
    world_lesson.write_sources(folder, "real_clock", '[world]\nreal = ["clock"]\n')
    world_lesson.write_sources(folder, "real_random", '[world]\nreal = ["random"]\n')
    world_lesson.write_sources(folder, "pinned", '[world]\nhash_seed = 4242\n')
    return folder


def value(root, expr, lesson="sources", **options):
    trace = record(lesson, "main", "custom", roots=[root], setup=world_lesson.setup_of(expr),
                   **options)
    assert trace["status"] == "finished", trace["message"]
    return trace["stdout"].strip()


@pytest.mark.parametrize("expr, shown", world_lesson.SOURCES, ids=[e for e, _ in world_lesson.SOURCES])
def test_each_source_reads_the_same_in_every_run(root, expr, shown):
    assert value(root, expr) == shown
    assert value(root, expr) == shown


REAL = {(time, name): getattr(time, name) for name in (
    "time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns", "sleep",
    "localtime", "gmtime", "ctime", "asctime", "strftime")}
REAL |= {(datetime, "datetime"): datetime.datetime, (datetime, "date"): datetime.date,
         (os, "urandom"): os.urandom, (uuid, "uuid1"): uuid.uuid1, (uuid, "uuid4"): uuid.uuid4,
         (random, "seed"): random.seed, (random, "Random"): random.Random,
         (random, "_urandom"): random._urandom, (threading.Thread, "start"): threading.Thread.start}


def test_a_run_puts_back_every_module_attribute_and_the_global_random_state(root):
    random.seed(99)
    expected = random.Random(99).random()
    tz = os.environ.get("TZ")
    names = tempfile._name_sequence
    for expr, _ in world_lesson.SOURCES:
        value(root, expr)
    for (module, name), real in REAL.items():
        assert getattr(module, name) is real, f"{module.__name__}.{name}"
    assert random.random() == expected          # random's state as it was
    assert os.environ.get("TZ") == tz and tempfile._name_sequence is names
    assert abs(time.time() - datetime.datetime.now().timestamp()) < 5
    assert len(secrets.token_hex(8)) == 16 and time.monotonic() > 0


def test_a_lesson_starts_its_clock_and_seeds_its_randomness(root):
    assert value(root, "datetime.datetime.now(datetime.timezone.utc).isoformat()", "later") \
        == "'2030-06-01T10:30:00+00:00'"
    assert value(root, "random.random()", "later") == repr(random.Random(7).random())
    assert value(root, "uuid.uuid4()", "later") != value(root, "uuid.uuid4()")


def test_the_real_clock_where_a_lesson_asks_for_it(root):
    before = time.time()
    seen = float(value(root, "time.time()", "real_clock"))
    assert before <= seen <= time.time()
    started = time.monotonic()
    value(root, "time.sleep(0.2)", "real_clock")   # a real sleep waits
    assert time.monotonic() - started >= 0.2
    started = time.monotonic()
    value(root, "time.sleep(3600)")                # a virtual one does not
    assert time.monotonic() - started < 60
    assert value(root, "random.random()", "real_clock") == "0.8444218515250481"


def test_real_randomness_differs_from_run_to_run(root):
    drawn = {value(root, "(random.random(), uuid.uuid4(), os.urandom(4))", "real_random")
             for _ in range(3)}
    assert len(drawn) == 3
    assert value(root, "time.time()", "real_random") == "1767258000.0"


def test_a_request_overrides_the_lessons_world(root):
    request = RunRequest.of("sources", "main", "custom", roots=[root],
                            setup=world_lesson.setup_of("(time.time(), random.random())"),
                            world=WorldSpec(start=0, seed=7))
    assert record_request(request)["stdout"] == f"(0.0, {random.Random(7).random()!r})\n"


@pytest.mark.parametrize("table, reason", [
    ('clock = "2026-01-01T09:00:00"', "clock: '2026-01-01T09:00:00' is not an instant with its "
                                      "time zone"),
    ('clock = "soon"', "clock: 'soon' is not an instant"),
    ('real = ["clock", "network"]', "real: unknown part 'network' (known: clock, random)"),
    ("hash_seed = 4294967296", "hash_seed: 4294967296 is more than 4294967295"),
    ("seed = -1", "[world.seed]: expected a seed (0 or more), got -1"),
    ("wind = 3", "unknown key 'wind'"),
])
def test_a_bad_world_table_is_refused_with_its_reason(tmp_path, table, reason):
    world_lesson.write_sources(tmp_path, "bad", f"[world]\n{table}\n")
    with pytest.raises(LessonError) as caught:
        load_lesson("bad", [tmp_path])
    assert reason in str(caught.value)


def test_a_pinned_hash_seed_this_python_lacks_is_a_clear_error(root, monkeypatch):
    monkeypatch.setattr(hashing, "current", lambda: 0)
    with pytest.raises(hashing.HashSeedError) as caught:
        value(root, "1", "pinned")
    assert str(caught.value) == (
        "lesson pinned pins [world] hash_seed = 4242, but this Python's string hashes use seed "
        "0 (set when Python starts: `loopstep trace` starts with the lesson's; the page's "
        "Python always has 0)")
    monkeypatch.setattr(hashing, "current", lambda: 4242)
    assert value(root, "1", "pinned") == "1"
    assert hashing.needed(load_lesson("pinned", [root]).world) == 4242
    assert hashing.needed(None) == hashing.needed(load_lesson("sources", [root]).world) == 0


@pytest.mark.parametrize("argument", ["'1'", "-1", "float('nan')", "None"])
def test_a_virtual_sleep_refuses_what_time_sleep_refuses(root, argument):
    expected = None
    try:
        time.sleep(eval(argument))
    except (TypeError, ValueError) as error:
        expected = f"{type(error).__name__}: {error}"
    trace = record("sources", "main", "custom", roots=[root],
                   setup=world_lesson.setup_of(f"time.sleep({argument})"))
    assert trace["message"] == expected


def test_record_keeps_its_keywords_and_refuses_others(root):
    setup = world_lesson.setup_of("time.time()")
    request = RunRequest.of("sources", "main", "custom", roots=[root], setup=setup,
                            inputs=["a"], max_steps=50)
    assert request.answers.inputs == ("a",) and request.max_steps == 50
    assert record_request(request)["stdout"] == record(
        "sources", "main", "custom", roots=[root], setup=setup, inputs=["a"],
        max_steps=50)["stdout"]
    with pytest.raises(TypeError):
        record("sources", "main", "custom", roots=[root], setup=setup, colour="red")
