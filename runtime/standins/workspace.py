"""The run's folder: a fresh directory holding ``[standins] files``, the current
directory while the program runs, removed afterwards.

Where it is: ``/tmp/loopstep-run`` in the page and, when no other process is recording,
in CPython too (runtime/world/folder.py); otherwise a new ``tempfile.mkdtemp()`` folder
that the recorder shows as ``/tmp/loopstep-run`` wherever the trace shows text (values,
output, model messages, errors: the run's ``values.Folder``), so a CPython trace and a
Pyodide trace are the same.
"""

import os

from ..world.folder import SHOWN, RunFolder


class Workspace:
    def __init__(self, files, shown=None, name=SHOWN):
        self.shown = shown   # the run's values.Folder (None: nothing shows the folder)
        self.name = name     # the folder as the trace shows it (a recording's cwd, else SHOWN)
        self._folder = RunFolder()
        self.path = self._folder.path
        try:
            for relative, text in files:
                target = os.path.join(self.path, *relative.split("/"))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "w", encoding="utf-8", newline="") as handle:
                    handle.write(text)
        except BaseException:
            self._folder.remove()
            raise

    def enter(self):
        """Make the folder the current directory and show it as its name in the trace."""
        os.chdir(self.path)
        if self.path != self.name and self.shown is not None:
            self.shown.show(self.path, self.name)

    def remove(self):
        if self.shown is not None:
            self.shown.forget()
        self._folder.remove()
