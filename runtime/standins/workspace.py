"""The run's folder: a fresh directory holding ``[standins] files``, the current
directory while the program runs, removed afterwards.

Where it is, and how the trace shows it: in Pyodide (the browser worker) the folder is
``/tmp/loopstep-run`` itself, in the worker's own in-memory file system. In CPython
(``loopstep trace``, the tests) it is a new ``tempfile.mkdtemp()`` folder, since other
processes may record at the same time; the program works with that real path, and
the recorder shows it as ``/tmp/loopstep-run`` wherever the trace shows text (values,
output, model messages, errors: the run's ``values.Folder``), so a CPython trace and a
Pyodide trace are the same. The program itself sees the real path: code whose
behaviour depends on the path's length or text could differ between the two.
"""

import os
import shutil
import sys
import tempfile

SHOWN = "/tmp/loopstep-run"


class Workspace:
    def __init__(self, files, shown=None, name=SHOWN):
        self.shown = shown   # the run's values.Folder (None: nothing shows the folder)
        self.name = name     # the folder as the trace shows it (a recording's cwd, else SHOWN)
        if sys.platform == "emscripten":
            if os.path.lexists(SHOWN):
                shutil.rmtree(SHOWN)
            os.makedirs(SHOWN)
            self.path = SHOWN
        else:
            self.path = os.path.realpath(tempfile.mkdtemp(prefix="loopstep-run-"))
        for relative, text in files:
            target = os.path.join(self.path, *relative.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)

    def enter(self):
        """Make the folder the current directory and show it as its name in the trace."""
        os.chdir(self.path)
        if self.path != self.name and self.shown is not None:
            self.shown.show(self.path, self.name)

    def remove(self):
        if self.shown is not None:
            self.shown.forget()
        shutil.rmtree(self.path, ignore_errors=True)
