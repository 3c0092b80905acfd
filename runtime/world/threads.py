"""Which threads live in the run's world: the one that entered it and every thread the
program starts from one of them. Any other thread (the recorder's own, a server running
in the same process) reads the real clock and the real entropy while the run lasts, and
nothing it reads is kept on the run's tape."""

import threading

_MARK = "_loopstep_world"


class Threads:
    def __init__(self):
        self.owner = None
        self._start = None

    def mine(self):
        ident = threading.get_ident()
        if ident == self.owner:
            return True
        thread = threading._active.get(ident)
        return thread is not None and getattr(thread, _MARK, False)

    def enter(self):
        self.owner = threading.get_ident()
        start = self._start = threading.Thread.start
        mine = self.mine

        def started(thread):
            if mine():
                setattr(thread, _MARK, True)
            return start(thread)

        threading.Thread.start = started

    def leave(self):
        if self._start is not None:
            threading.Thread.start = self._start
            self._start = None
        self.owner = None
