"""The run's working folder as the trace records it: its files at the start and every
change the run made to them, observed, never guessed from tool names.

Offers ``Watcher`` (one run's folder: ``start()``, ``stop()``, ``result()``, the trace's
``workspace`` key) and ``MAX_TEXT`` (the bytes of a file's text kept per version).
Writes are seen through the interpreter's audit events (``open`` for writing,
``os.remove``, ``os.rename``, ``os.truncate``, ``os.rmdir``, ``shutil.rmtree``, …), so
``open``, ``pathlib``, the stand-in shell's ``>``/``>>`` and its ``python`` commands are all
seen; the folder is read again before the next step is recorded. See docs/design.md,
"Workspace".
"""

from .watch import MAX_TEXT, Watcher

__all__ = ["MAX_TEXT", "Watcher"]
