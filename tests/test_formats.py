"""The conformance fixtures of tests/fixtures/formats.py are current, and Python reads
them as they say. tests/js/formats.test.mjs holds the page's modules to the same files."""

import base64
import importlib.util
import json
from pathlib import Path

import pytest

from loopstep.runtime.agent import wire as agent_wire
from loopstep.runtime.trace import wire

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("loopstep_formats", HERE / "fixtures" / "formats.py")
formats = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(formats)

BUILT = formats.build()


@pytest.mark.parametrize("name", sorted(BUILT))
def test_the_file_is_written_from_the_recorder(name):
    assert (HERE / "fixtures" / name).read_text("utf-8") == formats.text(BUILT[name]), \
        "run tests/fixtures/formats.py to rewrite the fixtures"


def test_packed_traces_unpack_to_their_dict_form():
    cases = BUILT["packed_trace.json"]
    assert len(cases) >= 3 and all(case["trace"]["steps"] for case in cases)
    for case in cases:
        assert wire.unpack(json.dumps(case["packed"])) == case["trace"], case["run"]


def test_packed_agent_calls_unpack_to_their_dict_form():
    fixture = BUILT["agent_calls.json"]
    assert len(fixture["agent"]["calls"]) >= 2 and fixture["agent"]["tools"]
    assert agent_wire.unpack(fixture["packed"]) == fixture["agent"]


def test_packed_tool_rows_unpack_to_their_dict_form():
    cases = {case["name"]: case for case in BUILT["agent_calls.json"]["tool_cases"]}
    for name, case in cases.items():
        assert agent_wire.unpack_tool(case["packed"]) == case["tool"], name
    same = cases["returned is the result's text"]
    assert len(same["packed"]) == 7 and same["tool"]["returned"] == same["packed"][5]
    assert len(cases["returned differs"]["packed"]) == 8
    assert cases["ran a command in the stand-in world"]["packed"][11:] == [1]
    assert cases["recorded, a tolerant replay's difference"]["packed"][-1].startswith("tool:")


def test_a_tolerant_replays_differences_survive_packing():
    fixture = BUILT["agent_calls.json"]["differing"]
    assert agent_wire.unpack(fixture["packed"]) == fixture["agent"]
    rows = fixture["packed"]["calls"]
    assert len(rows[0]) == 8 and rows[1][8] == "messages[2].content[0].text"


def test_calls_in_flight_survive_packing():
    fixture = BUILT["agent_calls.json"]["in_flight"]
    assert agent_wire.unpack(fixture["packed"]) == fixture["agent"]
    [row] = fixture["packed"]["in_flight"]
    assert row[2] == "Thread-1 (mate)" and "in_flight" not in BUILT["agent_calls.json"]["packed"]


def test_the_watch_column_has_changes_and_a_value_per_step():
    fixture = BUILT["watch_column.json"]
    trace = wire.unpack(json.dumps(fixture["packed"]))
    assert len(fixture["values"]) == len(trace["steps"])
    assert len({json.dumps(v) for v in fixture["values"]}) > 2   # the values change


def test_zero_runs_round_trip_and_leave_the_long_runs_out():
    for case in BUILT["zero_runs.json"]:
        data = bytearray(case["total"])
        for offset, piece in case["pieces"]:
            piece = base64.b64decode(piece)
            data[offset:offset + len(piece)] = piece
        packed = base64.b64decode(case["packed"])
        assert formats.expand_zero_runs(packed) == bytes(data), case["name"]
        assert len(packed) <= 12 + len(data) + 8 * (len(data) // formats.MIN_RUN + 1)
    long_runs = {c["name"]: len(base64.b64decode(c["packed"])) for c in BUILT["zero_runs.json"]}
    assert long_runs["all zeros"] == 12 and long_runs["one run between two pieces"] < 3 * formats.MIN_RUN


@pytest.mark.parametrize("damage", [b"XXXX", "truncated"])
def test_damaged_zero_runs_are_refused(damage):
    packed = base64.b64decode(BUILT["zero_runs.json"][3]["packed"])
    packed = damage + packed[4:] if isinstance(damage, bytes) else packed[:-1]
    with pytest.raises(ValueError):
        formats.expand_zero_runs(packed)
