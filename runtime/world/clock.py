"""The run's clock: virtual unless the lesson asks for the real one (``[world] real =
["clock"]``), the same in CPython and Pyodide.

Entered, it replaces for the run ``time.time``, ``time_ns``, ``monotonic(_ns)``,
``perf_counter(_ns)``, ``sleep``, ``localtime``/``gmtime``/``ctime``/``asctime``/
``strftime`` (their forms without a time), ``datetime.datetime`` (``now``, ``utcnow``,
``today``) and ``datetime.date`` (``today``), as attributes of the real modules, so that
``from time import time`` in the program gets the run's; left, it puts them back. The
run's time zone is UTC (``TZ``), so local time is the same everywhere. Threads outside
the run's world (threads.py) read the real clock.

The virtual clock starts at the lesson's instant (``[world] clock``, else
spec.DEFAULT_START) for the wall clock and at 0 for the monotonic one. Each reading
returns the clock and then moves it on by ``TICK`` (1 ms), so durations are never 0 and
are the same in every run; ``sleep(s)`` moves it on by ``s`` without waiting. With the
real clock, readings and sleeps are the real ones. Either way each reading is kept on the
run's tape (tape.py), and a replay's tape gives its readings back (its sleeps do not wait).

``datetime.datetime`` and ``datetime.date`` are C types: the run's are subclasses that
make real ``datetime``/``date`` values (``isinstance`` holds both ways, ``repr`` is the
usual one).
"""

import datetime as _dt
import operator
import os

from . import real

TICK = 1_000   # µs a reading moves the virtual clock on


class _Like(type):
    """The metaclass of the run's datetime types: a real value is an instance of them."""

    def __instancecheck__(cls, value):
        return isinstance(value, cls.real)

    def __subclasscheck__(cls, other):
        return issubclass(other, cls.real)


class Clock:
    def __init__(self, spec, tape, threads):
        self.spec, self.tape, self.threads = spec, tape, threads
        self.real = spec.is_real("clock")
        self.wall = round(spec.start * 1_000_000)   # µs since the epoch
        self.mono = 0                                # µs since the run started
        self._saved = {}
        self._tz = None

    # -- readings --------------------------------------------------------------

    def _read(self, kind):
        value = self.tape.recorded(kind)
        if value is None and self.real and not self.tape.replayed:
            value = real.time_ns() // 1000 if kind == "wall" else real.monotonic_ns() // 1000
        if value is None:
            value = self.wall if kind == "wall" else self.mono
            self.wall += TICK
            self.mono += TICK
        else:   # the clock goes on from a real or replayed reading
            if kind == "wall":
                self.wall = value + TICK
            else:
                self.mono = value + TICK
        self.tape.keep(kind, value)
        return value

    def wall_seconds(self):
        return self._read("wall") / 1_000_000

    def loop_time(self):
        """The monotonic clock in seconds for the run's event loop (aio.py), not a reading:
        the loop's own look at the clock is no program's, so it neither moves the clock on
        nor goes on the tape (how often asyncio looks differs from one Python to the next)."""
        if self.real and not self.tape.replayed:
            return real.monotonic()
        return self.mono / 1_000_000

    def sleep(self, seconds):
        if not isinstance(seconds, float):   # as time.sleep refuses them
            seconds = operator.index(seconds)
        elif seconds != seconds:
            raise ValueError("Invalid value NaN (not a number)")
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        if self.real and not self.tape.replayed:
            real.sleep(seconds)
            return
        step = round(seconds * 1_000_000)
        self.wall += step
        self.mono += step

    # -- the modules' attributes -----------------------------------------------

    def functions(self):
        """{name: the run's function} for the ``time`` module."""
        wall, mono, clock = self.wall_seconds, self._read, self

        def either(real_function):
            def chosen(*args):
                return real_function(*args) if args and args[0] is not None \
                    else real_function(wall())
            chosen.__name__ = real_function.__name__
            return chosen

        def asctime(*args):
            return real.asctime(*args) if args else real.asctime(real.localtime(wall()))

        def strftime(format, *args):
            return real.strftime(format, *args) if args \
                else real.strftime(format, real.localtime(wall()))

        return {"time": wall,
                "time_ns": lambda: clock._read("wall") * 1000,
                "monotonic": lambda: mono("mono") / 1_000_000,
                "monotonic_ns": lambda: mono("mono") * 1000,
                "perf_counter": lambda: mono("mono") / 1_000_000,
                "perf_counter_ns": lambda: mono("mono") * 1000,
                "sleep": clock.sleep,
                "localtime": either(real.localtime), "gmtime": either(real.gmtime),
                "ctime": either(real.ctime), "asctime": asctime, "strftime": strftime}

    def types(self):
        """The run's ``datetime.datetime`` and ``datetime.date``."""
        mine = self.threads.mine

        def wall():
            return self.wall_seconds() if mine() else real.time()

        class datetime(real.datetime, metaclass=_Like):
            def __new__(cls, *args, **kwargs):
                return real.datetime(*args, **kwargs)

            @classmethod
            def now(cls, tz=None):
                return real.datetime.fromtimestamp(wall(), tz)

            @classmethod
            def utcnow(cls):
                return real.datetime.fromtimestamp(wall(), _dt.timezone.utc) \
                    .replace(tzinfo=None)

            @classmethod
            def today(cls):
                return real.datetime.fromtimestamp(wall())

        class date(real.date, metaclass=_Like):
            def __new__(cls, *args, **kwargs):
                return real.date(*args, **kwargs)

            @classmethod
            def today(cls):
                return real.date.fromtimestamp(wall())

        for made, of in ((datetime, real.datetime), (date, real.date)):
            made.real = of
            made.__module__ = "datetime"
            made.__qualname__ = of.__name__
        return datetime, date

    def enter(self):
        import time
        if self.real and not self.tape.replayed:
            self.mono = real.monotonic_ns() // 1000
        for name, function in self.functions().items():
            self._saved[("time", name)] = getattr(time, name)
            setattr(time, name, _only_for(self.threads, function, self._saved[("time", name)]))
        datetime, date = self.types()
        self._saved[("datetime", "datetime")] = _dt.datetime
        self._saved[("datetime", "date")] = _dt.date
        _dt.datetime, _dt.date = datetime, date
        self._tz = os.environ.get("TZ")
        os.environ["TZ"] = "UTC"
        if hasattr(time, "tzset"):
            time.tzset()

    def leave(self):
        import time
        for (module, name), value in self._saved.items():
            setattr(time if module == "time" else _dt, name, value)
        self._saved.clear()
        if self._tz is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = self._tz
        if hasattr(time, "tzset"):
            time.tzset()


def _only_for(threads, function, real_function):
    """``function`` in the threads of the world, ``real_function`` in any other."""
    def chosen(*args, **kwargs):
        if threads.mine():
            return function(*args, **kwargs)
        return real_function(*args, **kwargs)
    chosen.__name__ = chosen.__qualname__ = real_function.__name__
    chosen.__doc__ = real_function.__doc__
    return chosen
