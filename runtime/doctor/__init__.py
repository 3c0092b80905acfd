"""``loopstep doctor LESSON/BLOCK``: what could make two runs of a block differ.

A block's run lives in a world loopstep owns (runtime/world/): the same clock, ids,
randomness, string-hash order and run folder every time. The doctor says which of those
the block's run actually depends on, and what it takes from outside that world:

- **twice**: the block runs twice as the lesson says, each in a fresh process; any
  difference is named (a real clock or randomness the lesson asked for, a real file, …);
- **one source changed at a time**, each run in a fresh process: the clock (its start moved
  on), ids (``uuid``), randomness (``random``, ``os.urandom``, ``secrets``), the string-hash
  seed (another ``PYTHONHASHSEED``: the order of a set of strings, which the page's Python
  gives in its own way) and the environment (every variable's value changed); a run that
  differs names the source, the step, the line and the two values;
- **real files**: the files and folders the program opens or lists outside its run folder
  and Python's own (an audit hook, probe.py);
- **the page's Python**: the vendored Pyodide under Node, when ``node`` is there (node.py).

``diagnose(...)`` returns a Report (report.py); compare.py finds and describes the first
difference of two traces.
"""

from .doctor import SOURCES, diagnose

__all__ = ["SOURCES", "diagnose"]
