import functools


def take(items):
    it = iter(items)
    first = next(it)
    rest = list(it)
    return first, rest


class Tally:
    """Counts every special method the program's code lets run."""

    def __init__(self):
        self.calls = 0
        self.name = "tally"

    def _count(self, value):
        self.calls += 1
        return value

    def __eq__(self, other):
        return self._count(other is self)

    def __hash__(self):
        return self._count(7)

    def __lt__(self, other):
        return self._count(False)

    def __len__(self):
        return self._count(2)

    def __iter__(self):
        return self._count(iter([1, 2]))

    def __getitem__(self, key):
        return self._count(key)

    def __add__(self, other):
        return self._count(self)

    def __neg__(self):
        return self._count(self)

    def __index__(self):
        return self._count(1)

    def __format__(self, spec):
        return self._count("tally")

    def __repr__(self):
        return "Tally()"

    @property
    def doubled(self):
        return self._count(2 * self.calls)

    @functools.cached_property
    def cached(self):
        return self._count(1)


class Lazy:
    def __init__(self):
        self.misses = 0
        self.here = 1

    def __getattr__(self, name):
        self.misses += 1
        return name


def numbers():
    yield 1
    yield 2


def stateful():
    tally = Tally()
    lazy = Lazy()
    gen = numbers()
    pairs = iter([(1, 2), (3, 4)])
    items = [tally, 1]
    table = {"k": tally, 3: "three"}
    first = next(gen)
    pair = next(pairs)
    return tally.calls, lazy.misses, first, list(gen), pair, list(pairs), table["k"] is tally
