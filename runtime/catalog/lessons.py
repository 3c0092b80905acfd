"""Lessons: read ``lesson.toml`` from the lessons roots, resolve and validate files.

A lessons root is a folder; a lesson is a sub-folder of a root holding
``lesson.toml``. Every path in ``lesson.toml`` is relative to a lessons root and is
looked up in each root in order, and stays inside the root it is found in
(runtime/catalog/files.py). See docs/design.md, "Lessons".
"""

import ast
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
import re
import threading
import tomllib

from ..agent import spec as agent_spec
from . import files as lesson_files, schema as lesson_schema, shown as shown_parts
from .files import LessonError, read_text as _read_text, resolve
from .shown import WHOLE
from .syntax import located
from ..standins.spec import standins_from_toml
from ..world.spec import world_from_toml
from ..world import choices

RUNTIME_DIR = Path(__file__).resolve().parent.parent
BUNDLED_ROOTS = (RUNTIME_DIR / "lessons", RUNTIME_DIR.parent / "stubs")
LANGS = lesson_schema.LANGS
CUSTOM = "custom"    # the scenario of a reader's own setup text: never a preset's name
_NAMES_LOCK = threading.Lock()


@dataclass(frozen=True)
class Preset:
    name: str
    zh: str
    en: str
    input: tuple | None = None   # the answers of input() under this preset (None: its block's)
    recording: str | None = None   # path (relative to a root) of the recording answering it
    schedule: str | None = None    # the schedule its run follows (world/choices.py text form)


@dataclass(frozen=True)
class Block:
    id: str              # its name in URLs and traces: ``id``, else ``symbol``, else the first
                         # of ``symbols``, else (``["*"]``) the source file's stem
    symbol: str | None   # a one-function block (lines numbered from its def line), or a
                         # one-method block (``Board.claim``: the file's lines); else None
    symbols: tuple       # the displayed functions' and methods' names as listed, ("*",) for
                         # the whole file
    source: str          # path relative to a lessons root
    parts: tuple         # shown.Part per displayed function (or the file), in file order
    first_line: int      # the file line numbered 1: the def line of a function ``symbol``,
                         # else 1
    rows: tuple          # displayed rows: (number, text), None for an elided gap
    presets: tuple
    entry: str           # the call entry text
    entry_path: str      # the file name the entry runs under
    input: tuple | None = None   # the answers of input() in this block (None: the lesson's)

    @property
    def text(self):
        """The displayed lines (a ``symbol`` block: the function or method exactly), gaps
        left out."""
        return "\n".join(row[1] for row in self.rows if row is not None)

    @property
    def def_line(self):
        """The first part's ``def`` line (the function's or method's, for a ``symbol`` block)."""
        return self.parts[0].first

    @property
    def end_line(self):
        return self.parts[-1].last

    @property
    def code_line(self):
        return self.parts[0].code_line

    @property
    def line_count(self):
        """The highest displayed line number."""
        return self.end_line - self.first_line + 1

    @property
    def spans(self):
        """The displayed line numbers as [first, last] runs."""
        out = []
        for row in self.rows:
            if row is None:
                out.append(None)
            elif out and out[-1] is not None:
                out[-1][1] = row[0]
            else:
                out.append([row[0], row[0]])
        return [span for span in out if span is not None]

    def shows(self, number):
        return any(a <= number <= b for a, b in self.spans)


@dataclass(frozen=True)
class StageLines:
    block: str
    first: int           # 1-based within the displayed function
    last: int


@dataclass(frozen=True)
class Stage:
    id: str
    zh: str
    en: str
    lines: tuple


@dataclass(frozen=True)
class Program:
    path: str            # the file name the text is compiled under
    text: str


@dataclass(frozen=True)
class Lesson:
    id: str
    title: dict
    summary: dict
    setup: str
    modules: tuple
    presets: tuple
    blocks: tuple
    stages: tuple
    files: dict = field(repr=False)   # relative path -> absolute Path, all the lesson needs
    agent: object = None              # agent_spec.AgentSpec or None (the [agent] table)
    standins: object = None           # standins.Standins or None (the [standins] table)
    max_model_calls: int | None = None   # the lesson's cap on model calls (None: the default)
    diagram_title: dict | None = None   # the diagram's title {zh, en} (None: the page's default)
    # a choice of another preset in a block's input picker clears its breakpoints
    switch_resets_breakpoints: bool = False
    world: object = None              # world.WorldSpec or None (the [world] table)
    # {block id: shown.Names}, worked out once per loaded lesson (shown_names)
    _names: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def block(self, block_id):
        for block in self.blocks:
            if block.id == block_id:
                return block
        raise KeyError(f"lesson {self.id} has no block '{block_id}' (its blocks: "
                       f"{', '.join(block.id for block in self.blocks)})")

    def preset(self, name):
        for preset in self.presets:
            if preset.name == name:
                return preset
        raise KeyError(f"lesson {self.id} has no preset '{name}' (its presets: "
                       f"{', '.join(preset.name for preset in self.presets)})")

    def read(self, path):
        return lesson_files.read(self.files[path])

    def shown_names(self, block_id):
        """The block's shown.Names (the calls it does not show, a whole file's own names):
        parsed once per loaded lesson, under a lock, as the server's threads share the lesson
        (several parses at once can fail on CPython 3.11); web/routes/pages.py asks for them
        when the app starts."""
        with _NAMES_LOCK:
            if block_id not in self._names:
                block = self.block(block_id)
                self._names[block_id] = shown_parts.names(block, self.read(block.source))
            return self._names[block_id]

    def answers(self, block_id, scenario):
        """The answers of ``input()`` in a run: the preset's ``input``, else the block's,
        else ``[standins] input``; None: none at all (the input is empty)."""
        found = [self.block(block_id).input, self.standins and self.standins.input]
        if scenario != CUSTOM:
            found.insert(0, self.preset(scenario).input)
        return next((answers for answers in found if answers is not None), None)

    def setup_text(self, scenario):
        """The setup program: the scenario line, then the setup file as on disk."""
        self.preset(scenario)
        return f"scenario = {scenario!r}\n" + self.read(self.setup)

    def programs(self, block_id, scenario):
        """The texts run for a block, in order: setup, each module, the entry."""
        block = self.block(block_id)
        texts = [Program(self.setup, self.setup_text(scenario))]
        texts += [Program(path, self.read(path)) for path in self.modules]
        texts.append(Program(block.entry_path, block.entry))
        return texts


def _roots(roots):
    return [Path(root) for root in (BUNDLED_ROOTS if roots is None else roots)]


_ID = re.compile(r"\w[\w.-]*")


def _parsed(path, text, source, why):
    """The syntax tree of a lesson's file; a syntax error as ``file:line:column``."""
    try:
        return ast.parse(text, filename=source)
    except SyntaxError as error:
        where, reason = located(error, path)
        raise LessonError(where, f"{reason}\n    {why.strip()}") from None


def _module(path, source, why):
    """The text of a module and its syntax tree."""
    text = _read_text(path, why)
    return text, _parsed(path, text, source, why)


def _block(lesson_id, raw, files, where, presets, parsed):
    """One block; ``parsed`` keeps each module's text and tree, parsed once per lesson."""
    symbol, names, source = raw.get("symbol"), raw.get("symbols"), raw["source"]
    label = raw.get("id", symbol or names[0])   # for errors until the id is known
    why = f" (block {label} of {where})"
    path = files[source]
    if source not in parsed:
        parsed[source] = _module(path, source, why)
    text, tree = parsed[source]
    try:
        parts = shown_parts.parts(tree, text, [symbol] if symbol else names)
    except ValueError as error:
        raise LessonError(path, f"{error}{why}") from None
    block_id = raw.get("id", symbol or (PurePosixPath(source).stem if names == [WHOLE]
                                        else names[0]))
    here = f"{where} (block {block_id})"
    if not _ID.fullmatch(block_id):
        raise LessonError(f"{here} [id]" if "id" in raw else here,
                          f"id {block_id!r} must be letters, digits, '_', '-' or '.' "
                          "(starting with a letter, digit or '_')")
    if "entry" not in raw and names != [WHOLE]:
        raise LessonError(here, "missing key 'entry' (text); only a symbols = [\"*\"] "
                                "block may leave it out")
    first_line = parts[0].first if symbol and not shown_parts.is_method(symbol) else 1
    chosen = raw.get("presets", [preset.name for preset in presets])
    known = {preset.name for preset in presets}
    for name in chosen:
        if name not in known:
            raise LessonError(f"{here} [presets]", f"names unknown preset {name!r} "
                                                   f"(the lesson's: {', '.join(sorted(known))})")
    return Block(block_id, symbol, tuple([symbol] if symbol else names), source, parts,
                 first_line, shown_parts.rows(text, parts, first_line), tuple(chosen),
                 raw.get("entry", ""), f"{lesson_id}/entry/{block_id}.py",
                 _answers(raw))


def _answers(raw):
    """The ``input`` answers of a table, a tuple; None when it has none."""
    return None if raw.get("input") is None else tuple(raw["input"])


def _schedule(raw, where):
    """A preset's ``schedule`` in its text form (world/choices.py), None when it has none."""
    if raw.get("schedule") is None:
        return None
    try:
        return choices.canonical(raw["schedule"])
    except ValueError as error:
        raise LessonError(where, str(error)) from None


def _stage(raw, where, blocks):
    here = f"{where} (stage {raw['id']})"
    spans = []
    for span in raw["lines"]:
        name, first, last = span["block"], span["from"], span["to"]
        if name not in blocks:
            raise LessonError(f"{here} [lines]", f"names unknown block {name!r}")
        block = blocks[name]
        if first > last:
            raise LessonError(f"{here} [lines]", f"from {first} is after to {last} (block {name})")
        if not (block.shows(first) and block.shows(last)):
            shown = ", ".join(f"{a}..{b}" for a, b in block.spans)
            raise LessonError(f"{here} [lines]", f"lines {first}..{last} are outside block "
                                                 f"{name} (lines {shown})")
        spans.append(StageLines(name, first, last))
    return Stage(raw["id"], raw["zh"], raw["en"], tuple(spans))


def _parse(toml_path):
    """The parsed ``lesson.toml``, checked against the schema (runtime/catalog/schema.py)."""
    try:
        data = tomllib.loads(_read_text(toml_path, ""))
    except tomllib.TOMLDecodeError as error:
        raise LessonError(toml_path, f"invalid TOML: {error}") from None
    try:
        lesson_schema.check(data)
    except lesson_schema.SchemaError as error:
        where = f"{toml_path} {error.where}" if error.where else toml_path
        raise LessonError(where, error.reason) from None
    return data


def load_lesson_file(lesson_id, toml_path, roots):
    """Parse and validate one lesson; raise LessonError naming the file and reason.

    Every error names ``toml_path``: as the place, or beside the other file's name."""
    where = str(toml_path)
    files = {f"{lesson_id}/lesson.toml": lesson_files.inside(  # in the folder of its folder
        Path(toml_path), Path(toml_path).parent.parent, where, f"{lesson_id}/lesson.toml")}
    data = _parse(toml_path)
    setup, modules = data["setup"], data["modules"]
    files[setup] = resolve(setup, roots, f"{where} [setup]")
    for module in modules:
        files[module] = resolve(module, roots, f"{where} [modules]")
    presets = tuple(Preset(raw["name"], raw["zh"], raw["en"], input=_answers(raw),
                           recording=raw.get("recording"),
                           schedule=_schedule(raw, f"{where} (preset {raw['name']}) [schedule]"))
                    for raw in data["presets"])
    for preset in presets:
        if preset.recording is not None:
            here = f"{where} (preset {preset.name}) [recording]"
            files[preset.recording] = lesson_files.recording(
                resolve(preset.recording, roots, here), here)
    if any(preset.name == CUSTOM for preset in presets):
        raise LessonError(f"{where} (preset {CUSTOM})",
                          f"the preset name {CUSTOM!r} is reserved for the reader's own setup")
    blocks, parsed = {}, {}
    for raw in data["blocks"]:
        if raw["source"] not in modules:
            label = raw.get("id", raw.get("symbol") or raw["symbols"][0])
            raise LessonError(f"{where} (block {label}) [source]",
                              f"{raw['source']!r} is not one of the modules")
        block = _block(lesson_id, raw, files, where, presets, parsed)
        if block.id in blocks:
            raise LessonError(f"{where} (block {block.id})",
                              f"two blocks have the id {block.id!r} (give one of them another 'id')")
        blocks[block.id] = block
    stages = tuple(_stage(raw, where, blocks) for raw in data.get("stages", []))
    why = f" (read for {where} [agent])"
    texts = {p: _read_text(files[p], why) for p in dict.fromkeys([setup, *modules])}
    for path, text in texts.items():   # each file's syntax, before [agent] and [standins]
        if path not in parsed:
            role = "the setup" if path == setup else "a module"
            _parsed(files[path], text, path, f" ({role} of {where})")
    agent = agent_spec.parse(data.get("agent"), where, texts, LessonError)
    stand_ins = standins_from_toml(data.get("standins"), where, texts[setup], setup, LessonError)
    return Lesson(lesson_id, dict(data["title"]), dict(data["summary"]), setup, tuple(modules),
                  presets, tuple(blocks.values()), stages, files, agent, stand_ins,
                  data.get("max_model_calls"), (data.get("diagram") or {}).get("title"),
                  switch_resets_breakpoints=data.get("switch_resets_breakpoints", False),
                  world=world_from_toml(data.get("world"), where, LessonError))


def _lesson_dirs(roots):
    found = {}
    for root in roots:
        if not root.is_dir():
            continue
        for child in sorted(root.iterdir()):
            toml_path = child / "lesson.toml"
            if child.name not in found and toml_path.is_file():
                found[child.name] = toml_path
    return found


def load_lessons(roots=None):
    """All lessons of the roots (bundled roots when None), by id, in id order."""
    roots = _roots(roots)
    return {lesson_id: load_lesson_file(lesson_id, path, roots)
            for lesson_id, path in _lesson_dirs(roots).items()}


def load_lessons_each(roots=None):
    """Every lesson of the roots, each on its own: ``(lessons, errors)``, the lessons that
    load by id and ``{id: message}`` of those that do not (``loopstep serve --reload``)."""
    roots = _roots(roots)
    lessons, errors = {}, {}
    for lesson_id, path in _lesson_dirs(roots).items():
        try:
            lessons[lesson_id] = load_lesson_file(lesson_id, path, roots)
        except LessonError as error:
            errors[lesson_id] = str(error)
    return lessons, errors


def lesson_ids(roots=None):
    """The ids of the lessons the roots hold (bundled roots when None), in id order."""
    return sorted(_lesson_dirs(_roots(roots)))


def load_lesson(lesson_id, roots=None):
    """One lesson by id; KeyError (its message lists the lessons there) when no root has it."""
    roots = _roots(roots)
    lesson_files.check_relative("lesson id", lesson_id)
    found = _lesson_dirs(roots)
    path = found.get(lesson_id)
    if path is None:
        where = "the bundled lessons" if roots == _roots(None) else \
            "the lessons in " + ", ".join(str(root) for root in roots)
        raise KeyError(f"no lesson '{lesson_id}' among {where} "
                       f"({', '.join(sorted(found)) or 'none'})")
    return load_lesson_file(lesson_id, path, roots)
