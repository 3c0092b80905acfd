"""loopstep runtime: the lesson catalog and the trace recorder (stdlib only).

The same files run in CPython and in Pyodide; see docs/design.md.
"""
