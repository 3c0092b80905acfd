"""The recording format's JSON Schema and the small validator of the subset of JSON
Schema it uses: ``type``, ``const``, ``enum``, ``required``, ``properties``,
``additionalProperties: false``, ``items``, ``prefixItems``, ``minItems``, ``maxItems``,
``minimum``, ``minLength``.

``SCHEMA`` is the schema; ``schema.json`` beside this module is the same schema as a file,
shipped in the package for other tools (``tests/test_recordings.py`` holds the two equal
and checks this validator against ``jsonschema``). The page's Python has no third-party
packages and its worker loads only modules, so the validator and the schema it uses are
Python here, and run in both CPython and Pyodide.
"""

import json
from collections import deque
from pathlib import Path

SCHEMA_PATH = Path(__file__).parent / "schema.json"
SCHEMA = {'$schema': 'https://json-schema.org/draft/2020-12/schema',
 '$id': 'https://loopstep.invalid/recording-3.schema.json',
 'title': "loopstep recording, version 3: a run's model calls and world, each message "
          "stored once",
 'type': 'object',
 'required': ['format', 'version', 'made_for', 'provider', 'model', 'origin', 'cwd', 'calls'],
 'additionalProperties': False,
 'properties': {'format': {'const': 'loopstep-recording'},
                'version': {'enum': [1, 2, 3]},
                'made_for': {'type': 'object',
                             'required': ['lesson', 'block', 'preset'],
                             'additionalProperties': False,
                             'properties': {'lesson': {'type': 'string', 'minLength': 1},
                                            'block': {'type': ['string', 'null']},
                                            'preset': {'type': ['string', 'null']}}},
                'provider': {'enum': ['anthropic', 'openai']},
                'model': {'type': 'string'},
                'origin': {'type': ['string', 'null']},
                'cwd': {'type': 'string', 'minLength': 1},
                'imported_from': {'type': ['string', 'null']},
                'status': {'enum': ['finished', 'exception', 'step_limit', 'error']},
                'input': {'type': 'array', 'items': {'type': 'string'}},
                'world': {'type': 'object',
                          'required': ['seed', 'clock'],
                          'additionalProperties': False,
                          'properties': {'seed': {'type': ['integer', 'null'], 'minimum': 0},
                                         'clock': {'type': 'array',
                                                   'items': {'type': 'array',
                                                             'minItems': 2,
                                                             'maxItems': 2,
                                                             'prefixItems': [{'enum': ['wall',
                                                                                       'mono']},
                                                                             {'type': 'integer',
                                                                              'minimum': 0}]}},
                                         'cut': {'type': 'boolean'},
                                         'ids': {'type': 'array',
                                                 'items': {'type': 'array',
                                                           'minItems': 2,
                                                           'maxItems': 2,
                                                           'prefixItems': [
                                                               {'type': 'integer',
                                                                'minimum': 0},
                                                               {'type': 'string',
                                                                'minLength': 32}]}},
                                         'outputs': {'type': 'array',
                                                     'items': {'type': 'array',
                                                               'minItems': 2,
                                                               'maxItems': 2,
                                                               'prefixItems': [
                                                                   {'type': 'integer',
                                                                    'minimum': 0},
                                                                   {'type': 'string'}]}}}},
                'values': {'type': 'array'},
                'calls': {'type': 'array',
                          'items': {'type': 'object',
                                    'required': ['request', 'response', 'seconds', 'tools'],
                                    'additionalProperties': False,
                                    'properties': {'request': {'type': 'object',
                                                               'required': ['model', 'messages'],
                                                               'properties': {'model': {'type': 'string'},
                                                                              'messages': {'type': 'array'}}},
                                                   'continues': {'type': 'object',
                                                                 'required': ['call', 'keep'],
                                                                 'additionalProperties': False,
                                                                 'properties': {'call': {'type': 'integer',
                                                                                         'minimum': 1},
                                                                                'keep': {'type': 'integer',
                                                                                         'minimum': 0}}},
                                                   'values': {'type': 'object'},
                                                   'response': {'type': 'object'},
                                                   'seconds': {'type': 'number', 'minimum': 0},
                                                   'thread': {'type': 'string', 'minLength': 1},
                                                   'started': {'type': 'integer', 'minimum': 1},
                                                   'tools': {'type': 'array',
                                                             'items': {'type': 'object',
                                                                       'required': ['name',
                                                                                    'input'],
                                                                       'additionalProperties': False,
                                                                       'properties': {'name': {'type': 'string'},
                                                                                      'input': {},
                                                                                      'output': {'type': 'string'},
                                                                                      'sent': {'type': 'array',
                                                                                               'minItems': 2,
                                                                                               'maxItems': 3,
                                                                                               'items': {'type': 'integer',
                                                                                                         'minimum': 0}},
                                                                                      'cut': {'type': 'boolean'},
                                                                                      'length': {'type': 'integer',
                                                                                                 'minimum': 0}}}}}}}}}

_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def schema_file():
    """The shipped schema file, as a dict."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _is(value, kind):
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _TYPES[kind])


def _shown(value):
    return json.dumps(value, ensure_ascii=False)[:60]


def first_error(value, rules, path="$"):
    """``(JSON path, reason)`` of the first place ``value`` breaks ``rules``, or None."""
    todo = deque([(value, rules, path)])
    while todo:
        value, rules, path = todo.popleft()
        if "const" in rules and value != rules["const"]:
            return path, f"must be {_shown(rules['const'])}, not {_shown(value)}"
        if "enum" in rules and value not in rules["enum"]:
            return path, f"must be one of {', '.join(map(_shown, rules['enum']))}, " \
                         f"not {_shown(value)}"
        kinds = rules.get("type")
        if kinds is not None:
            kinds = [kinds] if isinstance(kinds, str) else kinds
            if not any(_is(value, kind) for kind in kinds):
                return path, f"must be {' or '.join(kinds)}, not {_shown(value)}"
        if isinstance(value, str) and len(value) < rules.get("minLength", 0):
            return path, "must not be empty"
        if _is(value, "number") and "minimum" in rules and value < rules["minimum"]:
            return path, f"must be at least {rules['minimum']}"
        if isinstance(value, dict):
            for name in rules.get("required", ()):
                if name not in value:
                    return path, f"missing {name!r}"
            properties = rules.get("properties", {})
            if rules.get("additionalProperties") is False:
                for name in value:
                    if name not in properties:
                        return f"{path}.{name}", "is not a field of this object"
            todo += [(value[name], sub, f"{path}.{name}")
                     for name, sub in properties.items() if name in value]
        if isinstance(value, list):
            if len(value) < rules.get("minItems", 0):
                return path, f"must hold at least {rules['minItems']} items"
            if "maxItems" in rules and len(value) > rules["maxItems"]:
                return path, f"must hold at most {rules['maxItems']} items"
            first = rules.get("prefixItems", ())
            todo += [(item, first[index], f"{path}[{index}]")
                     for index, item in enumerate(value[:len(first)])]
            if "items" in rules:
                todo += [(item, rules["items"], f"{path}[{index}]")
                         for index, item in enumerate(value) if index >= len(first)]
    return None
