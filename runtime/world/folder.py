"""Where a run's folder is: ``/tmp/loopstep-run`` itself, in CPython as in the page, so
the program sees the same path in both.

In Pyodide the worker's file system is its own: the folder is always ``SHOWN``. In
CPython other processes may record at the same time: a run takes an exclusive lock
(``fcntl.flock``, waiting up to WAIT seconds) on ``/tmp/loopstep-run.lock`` for as long as it lasts and
uses ``SHOWN``; when another run holds it, or the folder is not this user's to replace,
or there is no ``fcntl`` (Windows), the run uses a fresh folder beside it whose path has
the same length (``/tmp/lsr-XXXXXXXX``, made by ``tempfile.mkdtemp``), which the trace
shows as ``SHOWN`` (the run's values.Folder): the trace is the same either way, and a
program that cuts a text holding its path cuts it at the same place.
"""

import os
import shutil
import stat
import sys
import tempfile

from . import real

SHOWN = "/tmp/loopstep-run"
LOCK = SHOWN + ".lock"
WAIT = 5.0   # seconds a run waits for another's folder before it takes one beside it

try:
    import fcntl
except ImportError:   # Windows
    fcntl = None


class RunFolder:
    """``path``: the folder made for the run; ``remove()`` deletes it and frees the lock."""

    def __init__(self):
        self._lock = None
        if sys.platform == "emscripten":
            _clear(SHOWN)
            os.makedirs(SHOWN)
            self.path = SHOWN
            return
        self.path = self._shared() or _beside()

    def _shared(self):
        """SHOWN, made fresh under the lock; None when it cannot be had now."""
        if fcntl is None:
            return None
        try:
            handle = os.open(LOCK, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return None
        deadline = real.monotonic() + WAIT
        while True:   # another run's folder is usually free again within moments
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if real.monotonic() >= deadline:
                    os.close(handle)
                    return None
                real.sleep(0.01)
        self._lock = handle
        try:
            if os.path.lexists(SHOWN):
                info = os.lstat(SHOWN)
                if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
                    raise OSError("not this user's folder")
                shutil.rmtree(SHOWN)
            os.mkdir(SHOWN, 0o700)
            return os.path.realpath(SHOWN)
        except OSError:
            self._unlock()
            return None

    def _unlock(self):
        if self._lock is not None:
            os.close(self._lock)   # closing the descriptor frees the lock
            self._lock = None

    def remove(self):
        try:
            shutil.rmtree(self.path, ignore_errors=True)
        finally:
            self._unlock()


def _beside():
    """A fresh folder beside SHOWN whose path is as long as SHOWN's (``/tmp/lsr-XXXXXXXX``):
    a program that cuts a text holding its folder's path cuts it at the same place."""
    parent = os.path.dirname(SHOWN)
    prefix = "lsr-"
    if os.path.isdir(parent):
        path = tempfile.mkdtemp(prefix=prefix, dir=parent)
        if len(path) == len(SHOWN):
            return os.path.realpath(path)
        os.rmdir(path)
    return os.path.realpath(tempfile.mkdtemp(prefix="loopstep-run-"))


def _clear(path):
    if os.path.islink(path) or os.path.isfile(path):
        os.unlink(path)
    elif os.path.lexists(path):
        shutil.rmtree(path)
