"""The ``[world]`` table of ``lesson.toml``: the world a lesson's runs start in.

    [world]
    clock = "2026-01-01T09:00:00Z"   # the instant the virtual clock starts at
    seed = 7                         # the seed of random, uuid, os.urandom, secrets
    hash_seed = 0                    # the string-hash seed the run needs (PYTHONHASHSEED)
    real = ["clock", "random"]       # what the run takes from the real world instead

Every key is optional; the defaults (``WorldSpec()``) make every run of a program the
same, in the CLI and the page. Types are checked by runtime/catalog/schema.py; here what
the types cannot say: ``clock`` an ISO 8601 instant with a time zone, ``real`` known
parts. See docs/authoring.md, "The run's world".
"""

from dataclasses import dataclass
from datetime import datetime

# The virtual clock's start when a lesson names none: 2026-01-01 09:00:00 UTC.
DEFAULT_START = 1_767_258_000
DEFAULT_SEED = 0
# The string-hash seed of every CLI run and of the page's Python (PYTHONHASHSEED).
DEFAULT_HASH_SEED = 0
MAX_HASH_SEED = 4_294_967_295   # PYTHONHASHSEED's largest
REAL = ("clock", "random")


@dataclass(frozen=True)
class WorldSpec:
    start: float = DEFAULT_START     # the clock's start, seconds since the epoch (UTC)
    seed: int = DEFAULT_SEED         # random, uuid, os.urandom, secrets
    hash_seed: int | None = None     # pinned by the lesson (None: DEFAULT_HASH_SEED)
    real: tuple = ()                 # any of REAL

    def is_real(self, part):
        return part in self.real


def instant(text):
    """Seconds since the epoch of an ISO 8601 instant with its time zone
    (``2026-01-01T09:00:00Z``, ``2026-01-01T10:00:00+01:00``), or None when it is not one."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return moment.timestamp()


def world_from_toml(raw, where, error):
    """The WorldSpec of a ``[world]`` table (None when absent), its types already checked
    (runtime/catalog/schema.py). ``error(where, reason)`` builds the exception."""
    if raw is None:
        return None
    here = f"{where} [world]"
    start = DEFAULT_START
    if "clock" in raw:
        start = instant(raw["clock"])
        if start is None:
            raise error(here, f"clock: {raw['clock']!r} is not an instant with its time zone "
                              "(such as \"2026-01-01T09:00:00Z\")")
    if raw.get("hash_seed", 0) > MAX_HASH_SEED:
        raise error(here, f"hash_seed: {raw['hash_seed']} is more than {MAX_HASH_SEED}")
    for part in raw.get("real", ()):
        if part not in REAL:
            raise error(here, f"real: unknown part {part!r} (known: {', '.join(REAL)})")
    return WorldSpec(start, raw.get("seed", DEFAULT_SEED), raw.get("hash_seed"),
                     tuple(raw.get("real", ())))
