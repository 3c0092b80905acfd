"""The string-hash seed: the order of a set of strings (and of a dict built from one).

Python picks the seed when it starts (``PYTHONHASHSEED``; random when unset), so a run
cannot change it. ``loopstep trace`` and ``loopstep record`` start again with the seed
their lesson needs (``needed``: ``[world] hash_seed``, else DEFAULT_HASH_SEED, 0) when
the process was started with another (``restart``); the page's Python is always started
with seed 0 (web/static/js/boot/boot.js, scripts/build_boot.mjs). A run of a lesson that
pins a seed this Python does not have stops with ``HashSeedError`` instead of printing
another order: in the page, any seed but 0.

One seed still gives different orders in different Pythons (CPython 3.11 and 3.14, and
the page's 32-bit hashes): a lesson whose output depends on a set's order prints the same
in every CLI run, and the same on every page load, not the same in both.
"""

import os
import subprocess
import sys

from .spec import DEFAULT_HASH_SEED

_STARTED_WITH = os.environ.get("PYTHONHASHSEED")   # as this process started
_RESTARTED = "LOOPSTEP_HASH_SEED_RESTARTED"
_WAS_RESTARTED = os.environ.pop(_RESTARTED, None)   # not passed on to the program


class HashSeedError(ValueError):
    """A lesson pins a hash seed this Python was not started with."""


def current():
    """This Python's string-hash seed, or None when it is random."""
    if sys.flags.hash_randomization == 0:
        return 0
    if _STARTED_WITH and _STARTED_WITH.isdigit() and not sys.flags.ignore_environment:
        return int(_STARTED_WITH)
    return None


def needed(world):
    """The seed a CLI run of a lesson with WorldSpec ``world`` (or None) starts with."""
    pinned = world.hash_seed if world is not None else None
    return DEFAULT_HASH_SEED if pinned is None else pinned


def check(lesson_id, world):
    """HashSeedError when the lesson pins a seed this Python does not have."""
    pinned = world.hash_seed if world is not None else None
    if pinned is None or pinned == current():
        return
    has = current()
    raise HashSeedError(
        f"lesson {lesson_id} pins [world] hash_seed = {pinned}, but this Python's string "
        f"hashes use {'a random seed' if has is None else f'seed {has}'} (set when Python "
        "starts: `loopstep trace` starts with the lesson's; the page's Python always has 0)")


def restart(seed):
    """Run this command again in a Python started with hash seed ``seed`` when this one
    has another; returns its exit code, or None when this Python already has it (or
    cannot be started again: ``python -E``, or already started again once)."""
    if current() == seed or sys.flags.ignore_environment or _WAS_RESTARTED:
        return None
    env = dict(os.environ, PYTHONHASHSEED=str(seed), **{_RESTARTED: "1"})
    argv = [sys.executable, *sys.orig_argv[1:]]
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execve(sys.executable, argv, env)
    return subprocess.call(argv, env=env)
