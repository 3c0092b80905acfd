"""One run's folder, watched: the files at the start, then each change with the step and
the conversation depth of the code that made it (docs/design.md, "Workspace").

The audit hook is installed once per interpreter (an audit hook cannot be removed) and
does nothing unless a run is being recorded (``_active``, set and cleared only by this
module's ``Watcher.start``/``stop``). A write marks its path dirty with the last recorded
step and the depth of the code that asked for it; before the next step (and when the run
ends) the folder is read again and every file that differs is one change.
"""

import os
import sys

from ..trace.values import presented

MAX_TEXT = 64 * 1024       # bytes of text kept per file version
_SKIPPED = "__pycache__"   # bytecode caches differ between Pythons: never shown
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_PATH_EVENTS = {"os.remove": 1, "os.rename": 2, "os.truncate": 1, "os.rmdir": 1,
                "shutil.rmtree": 1, "os.mkdir": 1, "os.utime": 1, "shutil.move": 2}
_active = None             # the Watcher of the run being recorded in this interpreter
_installed = False


def _hook(event, args):
    watcher = _active
    if watcher is None:
        return
    if event == "open":
        path, mode, flags = args
        if mode is not None:
            if not any(c in mode for c in "wax+"):
                return
        elif not (flags or 0) & _WRITE_FLAGS:
            return
        watcher.touched((path,))
    elif event in _PATH_EVENTS:
        watcher.touched(args[:_PATH_EVENTS[event]])


def describe(data, folder=None):
    """FILE: ``{"size": N, "text": T}`` (``"cut": true`` when T is only the first
    MAX_TEXT bytes), or ``{"size": N, "binary": true}``."""
    if b"\0" in data[:MAX_TEXT]:
        return {"size": len(data), "binary": True}
    try:
        text = data[:MAX_TEXT].decode("utf-8", errors="strict" if len(data) <= MAX_TEXT
                                      else "ignore")
    except UnicodeDecodeError:
        return {"size": len(data), "binary": True}
    found = {"size": len(data), "text": presented(text, folder)}
    if len(data) > MAX_TEXT:
        found["cut"] = True
    return found


class Watcher:
    """``root``: the run's folder (a real path); ``builder``: the TraceBuilder (its steps);
    ``depth()``: the conversation depth of the code running now; ``folder``: the run's
    values.Folder (how the trace shows the folder's path)."""

    def __init__(self, root, builder, depth=None, folder=None):
        self.root = os.path.realpath(root)
        self.builder = builder
        self.depth = depth or (lambda: 0)
        self.folder = folder
        self.files = self._scan()
        self.start_files = {rel: describe(data, folder) for rel, data in self.files.items()}
        self.changes = []          # [STEP, PATH, DEPTH, FILE | None]
        self.dirty = None          # (step, depth) of the first write not read back yet
        self.written = {}          # PATH → (step, depth) of its last write not read back yet

    # -- while recording -------------------------------------------------------------
    def start(self):
        global _active, _installed
        if not _installed:
            sys.addaudithook(_hook)
            _installed = True
        _active = self
        self.builder.workspace_watch = self.flush

    def stop(self):
        global _active
        if _active is self:
            _active = None
        self.builder.workspace_watch = None
        self.flush()

    def touched(self, paths):
        """A write to ``paths`` is about to happen: note its step and depth (per file; the
        first of a flush for what changed elsewhere, such as a removed folder's files)."""
        for path in paths:
            if isinstance(path, int):
                continue
            full = os.path.abspath(os.fsdecode(path))
            if not (full.startswith(self.root + os.sep)
                    or os.path.realpath(full).startswith(self.root + os.sep)):
                continue
            where = (max(len(self.builder.cols.event) - 1, 0), self.depth())
            if self.dirty is None:
                self.dirty = where
            rel = os.path.relpath(os.path.realpath(full), self.root).replace(os.sep, "/")
            self.written[rel] = where

    def flush(self, _step=None):
        if self.dirty is None:
            return
        first, written = self.dirty, self.written
        self.dirty, self.written = None, {}
        now = self._scan()
        for rel in sorted(set(now) | set(self.files)):
            data = now.get(rel)
            if data != self.files.get(rel):
                step, depth = written.get(rel, first)
                self.changes.append([step, rel, depth,
                                     None if data is None else describe(data, self.folder)])
        self.files = now

    # -- the folder ------------------------------------------------------------------
    def _scan(self):
        found = {}
        for here, dirs, names in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if d != _SKIPPED)
            for name in sorted(names):
                full = os.path.join(here, name)
                rel = os.path.relpath(full, self.root).replace(os.sep, "/")
                try:
                    with open(full, "rb") as handle:
                        found[rel] = handle.read()
                except OSError:
                    continue
        return found

    def result(self):
        """The trace's ``workspace`` key: ``{"files": {PATH: FILE}, "changes": [[STEP,
        PATH, DEPTH, FILE | None], …]}`` (None: a deleted file)."""
        return {"files": self.start_files, "changes": self.changes}
