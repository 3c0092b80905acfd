"""A command's ``timeout=`` in the run's time: the stand-in ``subprocess.run(...,
timeout=N)`` and the stand-in shell's ``timeout N CMD`` give the command N seconds, which
the shell's ``sleep`` spends (in a run with threads, as virtual time: schedule.py
``idle``); the ``sleep`` that would outlast them spends what is left and raises
``TimedOut`` (``subprocess.TimeoutExpired``, exit status 124). Kept per thread of the run
(its scheduler Record; None outside one)."""


class TimedOut(BaseException):   # through the stand-in shell's own handlers
    """A command outlasted its timeout."""


_left = {}   # thread key → seconds the command running in it has left


def command(key, timeout):
    """Around one command run in thread ``key`` with ``timeout`` (seconds or None)."""
    return _Budget(key, timeout)


def spend(key, seconds):
    """A ``sleep`` of ``seconds`` in thread ``key``: (the seconds it may take, whether it
    outlasts the command's timeout)."""
    left = _left.get(key)
    if left is None:
        return seconds, False
    over = seconds > left
    seconds = min(seconds, left)
    _left[key] = left - seconds
    return seconds, over


class _Budget:
    def __init__(self, key, timeout):
        self.key, self.timeout = key, timeout

    def __enter__(self):
        self.saved = _left.get(self.key)
        if self.timeout is not None:   # inside another command's: the smaller of the two
            self.start = float(self.timeout) if self.saved is None else \
                min(float(self.timeout), self.saved)
            _left[self.key] = self.start

    def __exit__(self, *exc):
        if self.timeout is None:
            return
        if self.saved is None:
            _left.pop(self.key, None)
        else:   # the outer command spent what this one did
            _left[self.key] = self.saved - (self.start - _left.get(self.key, 0.0))
