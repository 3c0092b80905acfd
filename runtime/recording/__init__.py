"""Recordings: a run's model calls — what the program sent and what came back — kept in
a versioned JSON format, so a real run can be stepped again without the model.

It offers the format (``format.py``: read, check against ``schema.json``, build; keyless
by construction), the one normal form of a request and the first place two differ
(``normal.py``), the replay that answers a run's model calls from a recording and stops at
the first divergence (``replay.py``), an imported recording's tool outputs answering
the lesson's handlers (``tools.py``), the live sender ``loopstep record`` uses
(``live.py``, CPython only) and the importer of learn-claude-code's traces
(``learn_claude_code.py``). Stdlib only: everything but ``live.py`` runs in CPython and in
the page's Pyodide. See docs/recordings.md.
"""

from .format import RecordingError, check, load, loads
from .replay import Divergence, NoAnswer, Replay

__all__ = ["Divergence", "NoAnswer", "RecordingError", "Replay", "check", "load", "loads"]
