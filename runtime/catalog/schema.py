"""The shape of ``lesson.toml``, declared in one table and checked in one walk.

Every table of the file is a ``Table``: its keys, each with a type and whether it is
required. An array of tables (``[[blocks]]``) is ``Tables``; a plain array is
``ListOf``. ``check(data)`` walks the parsed TOML once and raises ``SchemaError`` at
the first value that does not fit: a wrong type at any level, a missing required key,
an unknown key, an empty array, an entry listed twice, two items with the same name.
What needs the lesson's files or other keys (paths that exist, functions in them,
block ids and their duplicates, the presets a block names, an ``entry`` left out only
by a ``symbols = ["*"]`` block, the ``[standins]`` modules and setup functions, the ``[world]`` clock) is
checked afterwards by runtime/catalog/lessons.py, runtime/standins/spec.py and
runtime/world/spec.py.

To add a key, add one line to the table it belongs to (and a row to
docs/authoring.md, "lesson.toml reference").
"""

import re
from dataclasses import dataclass

from ..world import choices

LANGS = ("zh", "en")


class SchemaError(ValueError):
    """A value of ``lesson.toml`` that does not fit; ``where`` is its place in the file."""

    def __init__(self, path, reason):
        self.where = render(path)
        self.reason = reason
        super().__init__(f"{self.where}: {reason}" if self.where else reason)


@dataclass(frozen=True)
class Item:
    """A step of a path into an array: ``(block run_subagent)``, ``(stage #2)``, ``#3``."""
    index: int
    kind: str = ""      # what an item of an array of tables is: "block", "preset", …
    name: str = ""      # its name, when it has a usable one

    def label(self):
        if not self.kind:
            return f"#{self.index + 1}"
        return f"({self.kind} {self.name or f'#{self.index + 1}'})"


def render(path):
    """``("stages", Item(0, "stage", "ask"), "lines", Item(1), "from")`` as
    ``(stage ask) [lines] #2 [from]``: keys in brackets, array items by name or number."""
    parts, keys = [], []
    for step in path:
        if isinstance(step, str):
            keys.append(step)
            continue
        if step.kind and keys:
            keys.pop()          # "(block f)" says which array it is in
        if keys:
            parts.append(f"[{'.'.join(keys)}]")
            keys = []
        parts.append(step.label())
    if keys:
        parts.append(f"[{'.'.join(keys)}]")
    return " ".join(parts)


KINDS = {bool: "a boolean", int: "an integer", float: "a float", str: "text",
         list: "an array", dict: "a table"}


def shown(value):
    """A value as a message shows it: its TOML kind and a short repr."""
    kind = KINDS.get(type(value), f"a {type(value).__name__}")
    text = repr(value)
    return f"{kind} {text if len(text) <= 60 else text[:57] + '...'}"


def fail(path, reason):
    raise SchemaError(path, reason)


# -- types: each has `what` (for "expected ...") and check(value, path) ----------

class Text:
    """A string; not blank unless ``blank``; ``valid(value)`` further restricts it."""

    def __init__(self, what="text", *, blank=False, valid=None):
        self.what, self.blank, self.valid = what, blank, valid

    def check(self, value, path):
        if not isinstance(value, str):
            fail(path, f"expected {self.what}, got {shown(value)}")
        if not self.blank and not value.strip():
            fail(path, f"expected {self.what}, got empty text")
        if self.valid is not None and not self.valid(value):
            fail(path, f"{value!r} is not {self.what}")


class Int:
    """An integer (a boolean is not one), at least ``minimum``."""

    def __init__(self, what="an integer", *, minimum=None):
        self.what, self.minimum = what, minimum

    def check(self, value, path):
        if type(value) is not int:
            fail(path, f"expected {self.what}, got {shown(value)}")
        if self.minimum is not None and value < self.minimum:
            fail(path, f"expected {self.what}, got {value}")


class Bool:
    """``true`` or ``false`` (not a number, not text)."""

    def __init__(self, what="a boolean (true or false)"):
        self.what = what

    def check(self, value, path):
        if type(value) is not bool:
            fail(path, f"expected {self.what}, got {shown(value)}")


class ListOf:
    """An array of ``item``; at least ``min_items`` long; no entry twice when ``unique``."""

    def __init__(self, item, what, *, min_items=1, unique=True):
        self.item, self.what, self.min_items, self.unique = item, what, min_items, unique

    def check(self, value, path):
        if not isinstance(value, list):
            fail(path, f"expected {self.what}, got {shown(value)}")
        if len(value) < self.min_items:
            fail(path, f"expected {self.what}, got an empty array")
        seen = {}
        for index, entry in enumerate(value):
            self.item.check(entry, (*path, Item(index)))
            if self.unique:
                if entry in seen:
                    fail((*path, Item(index)), f"{entry!r} is listed twice (also #{seen[entry] + 1})")
                seen[entry] = index


class MapOf:
    """A table whose keys are chosen by the author, each value a ``value``."""

    def __init__(self, value, what):
        self.value, self.what = value, what

    def check(self, value, path):
        if not isinstance(value, dict):
            fail(path, f"expected {self.what}, got {shown(value)}")
        for key, entry in value.items():
            self.value.check(entry, (*path, key))


@dataclass(frozen=True)
class Key:
    type: object
    required: bool = True


def optional(kind):
    return Key(kind, required=False)


class Table:
    """A table with the keys of ``keys`` ({name: Key or type}) and no other;
    of each group in ``one_of`` exactly one key."""

    def __init__(self, keys, what="a table", *, one_of=()):
        self.keys = {name: key if isinstance(key, Key) else Key(key) for name, key in keys.items()}
        self.what, self.one_of = what, one_of

    def check(self, value, path):
        if not isinstance(value, dict):
            fail(path, f"expected {self.what}, got {shown(value)}")
        for name in value:
            if name not in self.keys:
                fail(path, f"unknown key {name!r} (known: {', '.join(self.keys)})")
        for group in self.one_of:
            present = [name for name in group if name in value]
            if len(present) != 1:
                fail(path, f"expected exactly one of {', '.join(group)}, got "
                           f"{', '.join(present) if present else 'none'}")
        grouped = {name for group in self.one_of for name in group}
        for name, key in self.keys.items():
            if name in value:
                key.type.check(value[name], (*path, name))
            elif key.required and name not in grouped:
                fail(path, f"missing key {name!r} ({key.type.what})")


class Tables:
    """An array of tables (``[[array]]``, each item a ``kind``), at least ``min_items``; an item is named by
    its first ``label`` key (one or a tuple) holding text in messages; no two items share a value of a ``unique`` key."""

    def __init__(self, table, array, kind, *, label, unique=(), min_items=1):
        self.table, self.kind = table, kind
        self.label = (label,) if isinstance(label, str) else tuple(label)
        self.unique, self.min_items = unique, min_items
        self.what = f"[[{array}]] tables"

    def check(self, value, path):
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            fail(path, f"expected {self.what}, got {shown(value)}")
        if len(value) < self.min_items:
            fail(path, f"expected at least {self.min_items} of {self.what}, got none")
        seen = {key: {} for key in self.unique}
        for index, item in enumerate(value):
            names = [item.get(key) for key in self.label]
            name = next((name for name in names if isinstance(name, str)), "")
            step = Item(index, self.kind, name)
            self.table.check(item, (*path, step))
            for key in self.unique:
                if key in item:
                    other = seen[key].setdefault(item[key], index)
                    if other != index:
                        fail((*path, step), f"duplicate {key} {item[key]!r} "
                                            f"(also {self.kind} #{other + 1})")


# -- lesson.toml -------------------------------------------------------------------

def _python_name(value):
    return value.isidentifier()


def _def_name(value):
    """A function's name (``f``) or a method's, its classes before it (``Board.claim``)."""
    return all(part.isidentifier() for part in value.split("."))


def _plain_name(value):
    return re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_-]*", value) is not None


TEXT = Text()
PATH = Text("a path relative to the lessons directory")
NAME = Text("a name (letters, digits, '_' and '-')", valid=_plain_name)
FUNCTION = Text("a Python function name", valid=_python_name)
LINE = Int("a line number (1 or more)", minimum=1)
LANG_TEXT = Table({lang: TEXT for lang in LANGS}, f"a table of {' and '.join(LANGS)} texts")
DOTTED = ListOf(Text("a dotted Python name"), "an array of dotted names", min_items=0)

# the answers of input() (as [standins] input): a preset's win over its block's, a block's
# over the lesson's
INPUT = ListOf(Text(blank=True), "an array of texts", min_items=0, unique=False)
# `recording`: a recording file (docs/recordings.md) answering the preset's model calls;
# `schedule`: the choices its run's threads follow (runtime/world/choices.py)
SCHEDULE = ListOf(Text(f"a schedule choice, {choices.EXAMPLE}", valid=choices.valid_item),
                  "an array of schedule choices", min_items=0)
PRESET = Table({"name": NAME, "zh": TEXT, "en": TEXT, "input": optional(INPUT),
                "recording": optional(PATH), "schedule": optional(SCHEDULE)})
SYMBOLS = ListOf(Text('a function or method name (f, Class.method), or "*" alone',
                      valid=lambda value: value == "*" or _def_name(value)),
                 'an array of function or method names, or ["*"]')
BLOCK = Table({
    "symbol": optional(Text('a function or method name (f, Class.method; the whole file is '
                            'symbols = ["*"])', valid=_def_name)),
    "symbols": optional(SYMBOLS),
    "id": optional(Text("a block id")),
    "source": PATH,
    "presets": optional(ListOf(NAME, "an array of preset names")),
    # required unless symbols = ["*"] (runtime/catalog/lessons.py); it may be empty when the
    # module's own `__main__` part drives the run (a REPL on [standins] input)
    "entry": optional(Text("the call entry's code", blank=True)),
    "input": optional(INPUT),
}, one_of=(("symbol", "symbols"),))
STAGE_LINES = Table({"block": Text("a block id"), "from": LINE, "to": LINE},
                    "a table {block, from, to}")
STAGE = Table({
    "id": NAME,
    "zh": TEXT,
    "en": TEXT,
    "lines": ListOf(STAGE_LINES, "an array of {block, from, to} tables", unique=False),
})
AGENT = Table({"model": optional(DOTTED), "tools": optional(DOTTED),
               "gate": optional(Text("a dotted Python name"))},
              'a table with model = [...], tools = [...] and gate = "NAME"')
AUTHOR_TEXTS = MapOf(Text(blank=True), 'a table of texts (NAME = "text")')
STANDINS = Table({
    "modules": optional(ListOf(Text("a module name"), "an array of module names")),
    "model": optional(FUNCTION),
    "shell": optional(FUNCTION),
    "env": optional(AUTHOR_TEXTS),
    "files": optional(AUTHOR_TEXTS),
    "input": optional(INPUT),
}, 'a table (modules = [...], model = "reply", ...)')

# the run's world (runtime/world/spec.py): clock, seeds, what is taken from the real world
WORLD = Table({
    "clock": optional(Text('an instant with its time zone ("2026-01-01T09:00:00Z")')),
    "seed": optional(Int("a seed (0 or more)", minimum=0)),
    "hash_seed": optional(Int("a hash seed (0 to 4294967295)", minimum=0)),
    "real": optional(ListOf(Text('"clock" or "random"'), 'an array of "clock", "random"',
                            min_items=0)),
}, 'a table (clock = "2026-01-01T09:00:00Z", seed = 7, ...)')

LESSON = Table({
    "title": LANG_TEXT,
    "summary": LANG_TEXT,
    "setup": PATH,
    "modules": ListOf(PATH, "an array of paths"),
    "presets": Tables(PRESET, "presets", "preset", label="name", unique=("name",)),
    "blocks": Tables(BLOCK, "blocks", "block", label=("id", "symbol")),
    "stages": optional(Tables(STAGE, "stages", "stage", label="id", unique=("id",), min_items=0)),
    "agent": optional(AGENT),
    "standins": optional(STANDINS),
    "world": optional(WORLD),
    # the cap on model calls of one run (runtime/agent/capture.py, default 100)
    # the diagram's caption (default: the page's, "How delegation flows")
    "diagram": optional(Table({"title": LANG_TEXT}, "a table with title = {zh, en}")),
    "max_model_calls": optional(Int("a number of model calls (1 or more)", minimum=1)),
    # a choice of another preset in a block's input picker clears its breakpoints (default false)
    "switch_resets_breakpoints": optional(Bool()),
}, "a lesson")


def check(data, schema=LESSON):
    """Raise SchemaError at the first value of ``data`` that does not fit ``schema``."""
    schema.check(data, ())
