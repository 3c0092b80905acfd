"""What a run may change in the interpreter, put back afterwards: ``sys.modules``,
``os.environ``, the current directory, ``builtins`` and ``sys.path``.

Every run of the recorder (finished, error or step cap) is wrapped in ``snapshot()`` /
``restore()``, so modules a lesson planted or imported, environment entries it set,
a ``chdir`` or a replaced builtin never reach the next lesson run in the same
process (a page's worker records many).
"""

import builtins
import os
import sys


class Snapshot:
    def __init__(self):
        self.modules = dict(sys.modules)
        self.environ = dict(os.environ)
        self.cwd = os.getcwd()
        self.builtins = dict(vars(builtins))
        self.path = list(sys.path)

    def restore(self):
        try:
            os.chdir(self.cwd)
        except OSError:
            pass
        sys.path[:] = self.path
        _restore_dict(vars(builtins), self.builtins)
        _restore_dict(sys.modules, self.modules)
        if dict(os.environ) != self.environ:
            for name in [n for n in os.environ if n not in self.environ]:
                del os.environ[name]
            for name, value in self.environ.items():
                if os.environ.get(name) != value:
                    os.environ[name] = value


def _restore_dict(current, saved):
    for name in [n for n in current if n not in saved]:
        del current[name]
    for name, value in saved.items():
        if name not in current or current[name] is not value:
            current[name] = value


def snapshot():
    return Snapshot()
