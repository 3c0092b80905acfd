"""loopstep.runtime: the trace recorder and the lesson catalog (the standard library only).

The same files run in CPython (``loopstep.runtime``) and in the page's Python (Pyodide,
where the worker imports them as ``runtime``), so modules of this package import each
other relatively. Rooms by concern:

- ``recorder`` — the entry points: ``record``, ``record_packed``; a run is wired here
  from the parts below;
- ``trace`` — recording and the trace: interpreter events, the trace builder, value
  encoding, statements, step events, the packed form;
- ``questions`` — what a reader asks of a run: conditions, hit counts, logpoints,
  watches (read-only by construction), and forks of a model or tool call;
- ``agent`` — the model and tool calls of a run: capture, messages, origins, formats;
- ``catalog`` — lessons: ``lesson.toml`` and its schema, blocks, what a block shows,
  the reader's custom setup;
- ``standins`` — stand-ins for what an agent file imports (SDK clients, dotenv,
  subprocess, the run's folder, input) and the isolation of every run;
- ``browser`` — the page's edge: the worker's entry and the boot's import hooks;
- ``cli`` — ``loopstep trace``.

``lessons/`` holds the bundled lessons' verbatim sources (not modules of this package).
"""
