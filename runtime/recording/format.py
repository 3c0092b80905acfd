"""The recording format, version 3 (docs/recordings.md; its schema is schema.json):

    {"format": "loopstep-recording", "version": 3,
     "made_for": {"lesson", "block", "preset"},     # what it was made for
     "provider": "anthropic" | "openai", "model": the model used,
     "origin": the endpoint's origin (null when not known), "cwd": the run's folder,
     "imported_from": null | "learn-claude-code", "status": the run's status,
     "input": the answers of input() the run was given, when not its preset's (optional),
     "world": {"seed": the run's seed, "clock": [["wall" | "mono", µs], …]} (optional:
              what the run's world drew, given back by a replay; runtime/world/tape.py),
     "calls": [{"request": the JSON body the SDK sends, "response": the provider's JSON,
                "seconds": 0.8,
                "tools": [{"name", "input", "output", "cut"?, "length"?}]}, …],
     "values": [a request field stored once, …] (optional)}

``tools`` are the tool executions after that call's answer, before the next call. A
recording holds no header, key or credential: ``new`` takes none, and a request is the
body alone. Version 1 (no ``world``) still reads: its replay runs in the lesson's world.

A version 3 file stores every message and request field once: a call's request holds the
messages new since its conversation's previous call (``continues``), repeated system
prompts and tool lists are ``values``, a tool's output sent back to the model is where it
was sent (compact.py). In memory every version reads whole (``check`` makes it so): each
request the body as sent, each tool's ``output`` its text; ``dumps`` writes version 3.
"""

import json
import re

from . import compact
from .schema import SCHEMA, first_error

FORMAT = "loopstep-recording"
VERSION = 3
_RESPONSE_KEY = {"anthropic": "content", "openai": "choices"}
# Arrays and objects a recording may nest, the document itself the first: a deeper file is
# refused before it is parsed (parsers recurse; in the page's worker a deep enough file
# would overflow the stack). A provider's request or response nests about ten.
MAX_DEPTH = 64
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_ESCAPED = re.compile(r'\\.', re.S)   # a character escaped in a string
_NOT_BRACKETS = re.compile(r'[^\[\]{}]+')
_TOKEN = re.compile(_STRING + r'|[\[\]{}:,]')
_SHOWN_KEY = 40   # characters of a key a JSON path shows


class RecordingError(ValueError):
    """A file that is not a recording loopstep can use: ``WHERE: JSON PATH: reason``."""


def problem(value):
    """``(JSON path, reason)`` of the first thing wrong with ``value``, or None."""
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        return "$.format", f"not a loopstep recording (expected \"format\": \"{FORMAT}\")"
    found = first_error(value, SCHEMA)
    if found:
        return found
    found = compact.problem(value) if value["version"] >= 3 else compact.old_keys(value)
    if found:
        return found
    key = _RESPONSE_KEY[value["provider"]]
    for index, call in enumerate(value["calls"]):
        if not isinstance(call["response"].get(key), list):
            return f"$.calls[{index}].response.{key}", \
                f"a {value['provider']} response needs a list {key!r}"
    return None


class Checked(dict):
    """A recording ``check`` found good and made whole: checked again, it is itself."""


def check(value, where="recording"):
    """``value`` when it is a recording, made whole (a version 3 file's, in place: see
    compact.py) as a ``Checked`` dict, else RecordingError naming ``where``."""
    if isinstance(value, Checked):
        return value
    found = problem(value) or (compact.expand(value) if value["version"] >= 3 else None)
    if found:
        raise RecordingError(f"{where}: {found[0]}: {found[1]}")
    return Checked(value)


def check_made_for(recording, lesson, block, where="recording"):
    """RecordingError naming both blocks when ``recording`` was made for another block
    than ``lesson/block`` (an imported recording names no block: any fits)."""
    made_for = recording["made_for"]
    if not recording.get("imported_from") and (
            made_for["lesson"] != lesson or made_for["block"] not in (None, block)):
        raise RecordingError(f"{where}: $.made_for: made for {made_for['lesson']}/"
                             f"{made_for['block'] or '*'}, not for {lesson}/{block}")
    return recording


def too_deep(text, limit=MAX_DEPTH):
    """The JSON path of the first array or object of ``text`` nested deeper than ``limit``
    (``$.calls[0].response``), or None. Reads the text once, without recursion; a text that
    is not JSON gets an answer that does not matter (parsing it fails)."""
    if text.count("[") + text.count("{") <= limit or not _deeper(text, limit):
        return None
    path = []   # per open container: [is an array, index or key]
    key = None  # the last string: the key, when a ':' follows
    for match in _TOKEN.finditer(text):
        token = match.group()
        head = token[0]
        if head == '"':
            key = token
        elif head == ":":
            if path and not path[-1][0]:
                path[-1][1] = key
        elif head == ",":
            if path and path[-1][0]:
                path[-1][1] += 1
        elif head in "[{":
            if len(path) == limit:
                return _json_path(path)
            path.append([head == "[", 0 if head == "[" else None])
        elif path:
            path.pop()
    return None


def _deeper(text, limit):
    """Whether ``text`` nests deeper than ``limit`` (the quick pass: the brackets outside
    its strings, found by the interpreter's own string methods: escaped characters
    dropped, then every other piece between quotes)."""
    if "\\" in text:
        text = _ESCAPED.sub("", text)
    depth = 0
    for bracket in _NOT_BRACKETS.sub("", "".join(text.split('"')[::2])):
        if bracket in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def _json_path(path):
    parts = ["$"]
    for is_array, at in path:
        if is_array:
            parts.append(f"[{at}]")
            continue
        try:
            name = json.loads(at) if at is not None else "?"
        except ValueError:
            name = "?"
        name = name if len(name) <= _SHOWN_KEY else name[:_SHOWN_KEY - 1] + "…"
        parts.append(f".{name}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name)
                     else f"[{json.dumps(name, ensure_ascii=False)}]")
    return "".join(parts)


def loads(text, where="recording"):
    deep = too_deep(text)
    if deep is not None:
        raise RecordingError(f"{where}: nested too deeply at {deep} (more than {MAX_DEPTH} "
                             "levels of arrays and objects)")
    try:
        value = json.loads(text)
    except ValueError as error:
        raise RecordingError(f"{where}: $: not JSON ({error})") from None
    return check(value, where)


def load(path):
    """The recording in the file at ``path``, checked; RecordingError naming the path."""
    try:
        text = open(path, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as error:
        raise RecordingError(f"{path}: $: cannot be read ({error})") from None
    return loads(text, str(path))


def new(lesson, block, preset, provider, model, origin, cwd, imported_from=None):
    """An empty recording; its ``calls`` are appended as they are made."""
    return {"format": FORMAT, "version": VERSION,
            "made_for": {"lesson": lesson, "block": block, "preset": preset},
            "provider": provider, "model": model, "origin": origin, "cwd": cwd,
            "imported_from": imported_from, "status": "finished", "calls": []}


def dumps(recording):
    """The version 3 file of a whole recording."""
    return json.dumps(compact.compact(recording), ensure_ascii=False, indent=1) + "\n"
