"""loopstep: a browser step-through debugger for the agent loops of a lesson series.

The one import package of the distribution (the source tree's root, mapped in
pyproject.toml). Its rooms:

- ``loopstep.runtime`` — the recorder and the lesson catalog (stdlib only; the same code
  runs in CPython and in the page's Python): ``trace``, ``questions``, ``agent``,
  ``catalog``, ``standins``, ``browser``;
- ``loopstep.stubs`` — the bundled lessons' setups (``lesson.toml``, stubs, call entries);
- ``loopstep.web`` — page data, views, routes, templates and the page's static files;
- ``loopstep.server`` — the FastAPI app and the ``loopstep`` command.

``python -m loopstep`` is the ``loopstep`` command. See docs/design.md.
"""
