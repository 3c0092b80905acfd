"""One normal form of a model request — the JSON body the real SDK would send — and the
first place two requests differ.

The SDKs send the keyword arguments of ``create`` as the body, an SDK object the program
put into its messages (a response's content block) as its fields that are set: so a
field whose value is None is left out, whether the program's list holds the object or a
capture wrote it from the object's attributes (``caller: null``, ``citations: null``).
``extra_body`` is merged in; ``extra_headers``, ``extra_query`` and ``timeout`` are not
part of the body.
"""

import json

from ..standins.sdk import Model

_NOT_BODY = ("extra_headers", "extra_query", "timeout")


def _plain(value, text):
    """``value`` as JSON data: objects dumped, None fields dropped, strings through
    ``text`` (how the run shows its folder)."""
    kind = type(value)   # the plain JSON types first: a request is mostly them
    if kind is str:
        return text(value)
    if kind is dict:
        return {str(k): _plain(v, text) for k, v in value.items() if v is not None}
    if kind is list:
        return [_plain(item, text) for item in value]
    if value is None or kind is bool or kind is int or kind is float:
        return value
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, type):
        value = dump()
    if isinstance(value, dict):
        return {str(k): _plain(v, text) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_plain(item, text) for item in value]
    if isinstance(value, str):
        return text(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return text(str(value))


def request_body(request, text=str):
    """The body of ``create(**request)`` in the normal form."""
    body = {k: v for k, v in request.items() if k not in _NOT_BODY and k != "extra_body"}
    body.update(request.get("extra_body") or {})
    return _plain(body, text)


def _json(value):
    """JSON data with None fields dropped (a recorded body: JSON already)."""
    if type(value) is dict:
        return {k: _json(v) for k, v in value.items() if v is not None}
    if type(value) is list:
        return [_json(item) for item in value]
    return value


def normal(body):
    """A recorded body in the normal form (None fields dropped)."""
    return _json(body)


# JSON Schema keywords whose arrays are sets, and those holding schemas (by name, in a
# list, in an object of them)
_SETS = ("enum", "required", "type")
_SCHEMA = ("items", "not", "additionalProperties", "additionalItems", "contains",
           "propertyNames", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties")
_SCHEMAS = ("anyOf", "allOf", "oneOf", "prefixItems", "items")
_BY_NAME = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def _schema(schema):
    """A JSON Schema with its set arrays in one order (their canonical texts sorted)."""
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    for key in _SETS:
        if isinstance(out.get(key), list):
            out[key] = sorted(out[key], key=lambda item: json.dumps(item, sort_keys=True))
    for key in _SCHEMA:
        if isinstance(out.get(key), dict):
            out[key] = _schema(out[key])
    for key in _SCHEMAS:
        if isinstance(out.get(key), list):
            out[key] = [_schema(item) for item in out[key]]
    for key in _BY_NAME:
        if isinstance(out.get(key), dict):
            out[key] = {name: _schema(item) for name, item in out[key].items()}
    return out


def unordered(body):
    """``body`` with the arrays of its tool definitions' JSON Schemas whose order means
    nothing (``enum``, ``required``, ``type``) in one order, so that they compare as sets:
    Messages API ``tools[i].input_schema``, Chat Completions ``tools[i].function.parameters``."""
    tools = body.get("tools") if isinstance(body, dict) else None
    if not isinstance(tools, list):
        return body
    shown = []
    for tool in tools:
        if isinstance(tool, dict) and isinstance(tool.get("input_schema"), dict):
            tool = dict(tool, input_schema=_schema(tool["input_schema"]))
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("parameters"), dict):
            tool = dict(tool, function=dict(function, parameters=_schema(function["parameters"])))
        shown.append(tool)
    return dict(body, tools=shown)


def same(recorded, sent):
    """Whether two normal bodies are equal, types and all (``first_difference`` is None),
    at the speed of the C encoder."""
    return canonical(recorded) == canonical(sent)


def canonical(body):
    """A JSON body as one text: equal texts, equal bodies (types and all)."""
    return json.dumps(body)


def _dumped(value):
    """The C encoder's fallback: an SDK object as its fields that are set, anything else
    as its text (as ``_plain`` has them)."""
    if isinstance(value, Model):   # a stand-in's: its fields are its attributes
        fields = vars(value)
        return fields if None not in fields.values() else \
            {k: v for k, v in fields.items() if v is not None}
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, type):
        return _json(dump())
    return str(value)


def quick_text(request, text=str):
    """``canonical(request_body(request, text))`` for the usual request, at the speed of
    the C encoder, else something no canonical body equals: a text equal to a recorded
    body's canonical text means the bodies are equal. It differs from the normal form
    only where a slower look is needed — a None field of the program's own data is kept,
    and ``text`` (the folder's path swapped) applies to the whole text at once —, so a
    caller compares the normal forms when the texts differ."""
    body = {k: v for k, v in request.items() if k not in _NOT_BODY and k != "extra_body"}
    body.update(request.get("extra_body") or {})
    try:
        return text(json.dumps(body, default=_dumped))
    except (TypeError, ValueError):   # keys of mixed types, a circular structure
        return None


def _shown(value):
    if value is _MISSING:
        return "(absent)"
    return json.dumps(value, ensure_ascii=False)


_MISSING = object()
REORDERED = "same items, another order: built from a set?"


def reordered(old, new):
    """Whether two lists hold the same items in another order."""
    return (isinstance(old, list) and isinstance(new, list) and len(old) == len(new)
            and old != new and sorted(map(canonical, old)) == sorted(map(canonical, new)))


def reordered_texts(old, new):
    """``reordered`` of two values as first_difference shows them (JSON texts)."""
    try:
        return reordered(json.loads(old), json.loads(new))
    except (TypeError, ValueError):
        return False


def first_difference(recorded, sent):
    """``(path, recorded text, sent text)`` of the first place two normal bodies differ
    (``system``, ``tools[2].name``, ``messages[3].content[0].text``), or None."""
    todo = [(recorded, sent, "")]
    while todo:
        old, new, path = todo.pop(0)
        if isinstance(old, dict) and isinstance(new, dict):
            keys = list(old) + [k for k in new if k not in old]
            if path == "":   # the model first, then the body's fields in their order
                keys.sort(key=lambda k: k != "model")
            todo[:0] = [(old.get(k, _MISSING), new.get(k, _MISSING),
                         f"{path}.{k}" if path else k) for k in keys]
        elif isinstance(old, list) and isinstance(new, list):
            if reordered(old, new):   # named whole: the same items in another order
                return path, _shown(old), _shown(new)
            common = [(a, b, f"{path}[{i}]") for i, (a, b) in enumerate(zip(old, new))]
            if len(old) != len(new):
                i = min(len(old), len(new))
                common.append((old[i] if i < len(old) else _MISSING,
                               new[i] if i < len(new) else _MISSING, f"{path}[{i}]"))
            todo[:0] = common
        elif old != new or type(old) is not type(new):
            return path, _shown(old), _shown(new)
    return None
