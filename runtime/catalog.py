"""Lessons: read ``lesson.toml`` from the lessons roots, resolve and validate files.

A lessons root is a folder; a lesson is a sub-folder of a root holding
``lesson.toml``. Every path in ``lesson.toml`` is relative to a lessons root and is
looked up in each root in order. See docs/design.md, "Lessons".
"""

import ast
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
import re
import tomllib

from . import agent_spec, shown as shown_parts
from .shown import WHOLE
from .standins.spec import standins_from_toml

HERE = Path(__file__).parent
BUNDLED_ROOTS = (HERE / "lessons", HERE.parent / "stubs")
LANGS = ("zh", "en")
CUSTOM = "custom"    # the scenario of a reader's own setup text: never a preset's name


class LessonError(ValueError):
    """A lesson that cannot be loaded; the message names the file and the reason."""

    def __init__(self, where, reason):
        super().__init__(f"{where}: {reason}")
        self.where = str(where)
        self.reason = reason


@dataclass(frozen=True)
class Preset:
    name: str
    zh: str
    en: str


@dataclass(frozen=True)
class Block:
    id: str              # its name in URLs and traces: ``id``, else ``symbol``, else the first
                         # of ``symbols``, else (``["*"]``) the source file's stem
    symbol: str | None   # a one-function block (lines numbered from its def line); else None
    symbols: tuple       # the displayed functions' names as listed, ("*",) for the whole file
    source: str          # path relative to a lessons root
    parts: tuple         # shown.Part per displayed function (or the file), in file order
    first_line: int      # the file line numbered 1: the def line of ``symbol``, else 1
    rows: tuple          # displayed rows: (number, text), None for an elided gap
    presets: tuple
    entry: str           # the call entry text
    entry_path: str      # the file name the entry runs under

    @property
    def text(self):
        """The displayed lines (a ``symbol`` block: the function exactly), gaps left out."""
        return "\n".join(row[1] for row in self.rows if row is not None)

    @property
    def def_line(self):
        """The first part's ``def`` line (the function's, for a ``symbol`` block)."""
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

    def block(self, block_id):
        for block in self.blocks:
            if block.id == block_id:
                return block
        raise KeyError(f"lesson {self.id} has no block {block_id!r}")

    def preset(self, name):
        for preset in self.presets:
            if preset.name == name:
                return preset
        raise KeyError(f"lesson {self.id} has no preset {name!r}")

    def read(self, path):
        return _read(self.files[path])

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


def _read(path):
    return Path(path).read_bytes().decode("utf-8")


def _roots(roots):
    return [Path(root) for root in (BUNDLED_ROOTS if roots is None else roots)]


def _check_relative(where, value):
    if not isinstance(value, str) or not value:
        raise LessonError(where, f"expected a relative path, got {value!r}")
    path = PurePosixPath(value)
    if path.is_absolute() or value.startswith(("/", "\\")) or ":" in path.parts[0] \
            or ".." in path.parts or "\\" in value:
        raise LessonError(where, f"path {value!r} must be relative, without '..'")
    return value


def resolve(value, roots, where):
    """The absolute path of a lesson-relative path: the first root that has it."""
    _check_relative(where, value)
    for root in roots:
        candidate = root / value
        if candidate.is_file():
            return candidate
    names = ", ".join(str(root) for root in roots)
    raise LessonError(where, f"file {value!r} not found in the lessons roots ({names})")


def _text(table, key, where):
    value = table.get(key)
    if not isinstance(value, str):
        raise LessonError(where, f"missing text {key!r}")
    return value


def _langs(table, key, where):
    inner = table.get(key)
    if not isinstance(inner, dict):
        raise LessonError(where, f"missing table {key!r} with {'/'.join(LANGS)}")
    return {lang: _text(inner, lang, f"{where} [{key}]") for lang in LANGS}


_ID = re.compile(r"\w[\w.-]*")


def _names(raw, where):
    """``symbol`` (one function) or ``symbols`` (several, or ["*"]): exactly one of them."""
    if ("symbol" in raw) == ("symbols" in raw):
        raise LessonError(where, "a block needs exactly one of 'symbol' and 'symbols'")
    if "symbol" in raw:
        symbol = _text(raw, "symbol", where)
        if symbol == WHOLE:
            raise LessonError(where, 'the whole file is symbols = ["*"], not symbol = "*"')
        return symbol, None
    return None, raw["symbols"]


def _block(lesson_id, raw, roots, where, preset_names):
    symbol, names = _names(raw, where)
    source = _text(raw, "source", where)
    label = raw.get("id", symbol or names)   # for errors until the id is known
    path = resolve(source, roots, f"{where} (block {label})")
    text = _read(path)
    try:
        tree = ast.parse(text, filename=source)
    except SyntaxError as error:
        raise LessonError(path, f"syntax error on line {error.lineno}: {error.msg}") from None
    try:
        parts = shown_parts.parts(tree, text, [symbol] if symbol else names)
    except ValueError as error:
        raise LessonError(path, f"{error} (block {label} of {where})") from None
    block_id = raw.get("id", symbol or (PurePosixPath(source).stem if names == [WHOLE]
                                        else names[0]))
    here = f"{where} (block {block_id})"
    if not isinstance(block_id, str) or not _ID.fullmatch(block_id):
        raise LessonError(here, f"id {block_id!r} must be letters, digits, '_', '-' or '.' "
                                "(starting with a letter, digit or '_')")
    first_line = parts[0].first if symbol else 1
    presets = raw.get("presets", [])
    if not isinstance(presets, list):
        raise LessonError(here, "presets must be a list of preset names")
    for name in presets:
        if name not in preset_names:
            raise LessonError(here, f"names unknown preset {name!r}")
    entry = raw.get("entry", "") if names == [WHOLE] else _text(raw, "entry", here)
    if not isinstance(entry, str):
        raise LessonError(here, "entry must be text")
    return Block(block_id, symbol, tuple([symbol] if symbol else names), source, parts,
                 first_line, shown_parts.rows(text, parts, first_line), tuple(presets), entry,
                 f"{lesson_id}/entry/{block_id}.py")


def _stage(raw, where, blocks):
    stage_id = _text(raw, "id", where)
    here = f"{where} (stage {stage_id})"
    spans = []
    for span in raw.get("lines", []):
        name = span.get("block")
        if name not in blocks:
            raise LessonError(here, f"names unknown block {name!r}")
        first, last = span.get("from"), span.get("to")
        block = blocks[name]
        if not (isinstance(first, int) and isinstance(last, int) and first <= last
                and block.shows(first) and block.shows(last)):
            shown = ", ".join(f"{a}..{b}" for a, b in block.spans)
            raise LessonError(here, f"lines {first}..{last} are outside block {name} "
                                    f"(lines {shown})")
        spans.append(StageLines(name, first, last))
    return Stage(stage_id, _text(raw, "zh", here), _text(raw, "en", here), tuple(spans))


def load_lesson_file(lesson_id, toml_path, roots):
    """Parse and validate one lesson; raise LessonError naming the file and reason."""
    where = f"{lesson_id}/lesson.toml"
    try:
        data = tomllib.loads(_read(toml_path))
    except tomllib.TOMLDecodeError as error:
        raise LessonError(toml_path, f"invalid TOML: {error}") from None
    files = {where: Path(toml_path)}
    setup = _text(data, "setup", where)
    files[setup] = resolve(setup, roots, f"{where} [setup]")
    modules = data.get("modules", [])
    if not isinstance(modules, list):
        raise LessonError(where, "modules must be a list of paths")
    for module in modules:
        files[module] = resolve(module, roots, f"{where} [modules]")
    presets = []
    for raw in data.get("presets", []):
        presets.append(Preset(_text(raw, "name", where), _text(raw, "zh", where),
                              _text(raw, "en", where)))
    names = {preset.name for preset in presets}
    if CUSTOM in names:
        raise LessonError(where, f"preset name {CUSTOM!r} is reserved for the reader's own setup")
    blocks = {}
    for raw in data.get("blocks", []):
        block = _block(lesson_id, raw, roots, where, names)
        if block.source not in modules:
            raise LessonError(where, f"block {block.id}: source {block.source!r} "
                                     "is not one of the modules")
        if block.id in blocks:
            raise LessonError(where, f"two blocks have the id {block.id!r} "
                                     "(give one of them another 'id')")
        files[block.source] = resolve(block.source, roots, where)
        blocks[block.id] = block
    stages = tuple(_stage(raw, where, blocks) for raw in data.get("stages", []))
    agent = agent_spec.parse(data.get("agent"), where,
                             {p: _read(files[p]) for p in [setup, *modules]}, LessonError)
    stand_ins = standins_from_toml(data.get("standins"), where, _read(files[setup]), setup,
                                   LessonError)
    return Lesson(lesson_id, _langs(data, "title", where), _langs(data, "summary", where),
                  setup, tuple(modules), tuple(presets), tuple(blocks.values()), stages, files,
                  agent, stand_ins)


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


def load_lesson(lesson_id, roots=None):
    """One lesson by id; KeyError when no root has it."""
    roots = _roots(roots)
    _check_relative("lesson id", lesson_id)
    path = _lesson_dirs(roots).get(lesson_id)
    if path is None:
        raise KeyError(f"no lesson {lesson_id!r}")
    return load_lesson_file(lesson_id, path, roots)
