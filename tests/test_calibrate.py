"""A replay of a recording without clock readings gives back, as the recorded time, the
reading a request showed otherwise (runtime/recording/calibrate.py): a table of
(divergence texts, the run's readings, the readings given back)."""
import pytest

from loopstep.runtime.recording.calibrate import clock_fix

START = 1_767_258_000_000_000          # 2026-01-01T09:00:00Z in µs
R = 1_773_839_012                      # the recorded run's seconds

CASES = [
    # int(time.time()) in a transcript's name: the reading's µs beyond the second are kept
    ("transcript_1767258000.jsonl", f"transcript_{R}.jsonl",
     [["mono", 0], ["wall", START + 4_000]], [["mono", 0], ["wall", R * 1_000_000 + 4_000]]),
    # the second wall reading is the one shown
    ('"ts": 1767258000.002', f'"ts": {R}.5',
     [["wall", START], ["wall", START + 2_000]], [["wall", START], ["wall", R * 1_000_000 + 500_000]]),
    # datetime.now().isoformat()
    ('"created_at": "2026-01-01T09:00:00.001000"', '"created_at": "2026-03-18T14:23:32.250000"',
     [["wall", START + 1_000]], [["wall", 1_773_843_812_250_000]]),
    # milliseconds
    ("id-1767258000000", f"id-{R}123", [["wall", START]], [["wall", R * 1_000_000 + 123_000]]),
]


@pytest.mark.parametrize("sent, recorded, readings, expected", CASES)
def test_the_reading_shown_is_given_back_as_recorded(sent, recorded, readings, expected):
    fix = clock_fix({"sent": sent, "recorded": recorded}, readings)
    assert fix == expected


@pytest.mark.parametrize("sent, recorded, readings", [
    ("count 3", "count 4", [["wall", START]]),                       # no time at all
    ("transcript_1767258999.jsonl", f"transcript_{R}.jsonl", [["wall", START]]),  # not read
    ("transcript_1767258000.jsonl", "transcript_2026-01-01T09:00:00.jsonl", [["wall", START]]),
    ("transcript_1767258000.jsonl", f"transcript_{R}.jsonl", []),
])
def test_other_differences_are_no_clock(sent, recorded, readings):
    assert clock_fix({"sent": sent, "recorded": recorded}, readings) is None


def test_no_divergence_no_fix():
    assert clock_fix(None, [["wall", START]]) is None
