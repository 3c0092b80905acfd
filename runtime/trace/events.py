"""Step events: their codes and which of them a breakpoint hits; the caps that end a run.

Defined once for Python; ``web/static/js/model/events.js`` holds the same for the page and
tests/test_events.py checks that the two agree.
"""

EVENTS = ("call", "line", "return", "exception")
CALL, LINE, RETURN, EXCEPTION = range(len(EVENTS))

# The caps that end a run early, each with its partial run: the trace's status is then
# "step_limit" and its ``limit`` is {"kind": one of these, "cap": N} (docs/design.md).
LIMITS = ("steps", "model_calls", "output")

# A breakpoint on line N is hit by a step of these events whose [line, end] holds N.
HIT_EVENTS = ("line",)


def is_hit(event, first, last, line):
    """Whether a step (event name, its statement's first and last line) hits a
    breakpoint on ``line`` (the page's rule: web/static/js/model/stepping.js ``hitIndices``)."""
    return event in HIT_EVENTS and first <= line <= last
