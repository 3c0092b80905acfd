"""Run-time checks that keep a reader's expression from changing the program.

expressions.py rewrites every operation of a checked expression that could run the
program's own code or consume its state into a call of a function here: iterating
(``ITER``), unpacking, ``in``, operators, comparisons, truth tests, subscripts,
attribute reads, formatting, hashing and calls (``guard``). Each decides by the exact
type of the values it is handed, when it runs, and raises ``Refused`` (shown as
``not evaluated: …``) instead of doing anything that could:

- iteration goes only over a builtin container (exactly ``list``, ``tuple``, ``dict``
  and its views, ``set``, ``frozenset``, ``str``, ``bytes``, ``range``) or over an
  iterator the expression made itself (``iter``, ``enumerate``, ``zip``,
  ``reversed``, a generator expression; ``fresh``), never over a program's
  iterator, generator or user class;
- where a builtin compares, hashes, adds or formats the items it is handed
  (``sorted``, ``min``, ``max``, ``sum``, ``set``, ``dict``, ``==`` and ``<`` of
  containers, ``in``), each item must be ``plain``: an exact builtin scalar or a
  builtin container of plain items;
- an object of any other type is only read: its attributes when reading them runs no
  Python code (no property, no descriptor whose ``__get__`` is Python, no Python
  ``__getattribute__``, no ``__getattr__`` that a missing name would call), ``is``,
  ``type``, ``isinstance``, ``==`` when its class keeps ``object``'s identity
  comparison, a truth test when its class has no Python ``__bool__``/``__len__``;
  ``len`` only of builtin containers.

One gap is left on purpose: looking a plain key up in a dict or set (``d[k]``,
``k in s``, ``d.get(k)``) whose own keys are user objects with a hash equal to the
key's would compare them with their ``__eq__``, as any lookup does.
"""

import operator
import types
from itertools import chain as _chain

_NONE = type(None)
NUMBERS = frozenset({int, float, complex, bool})
SCALARS = frozenset({int, float, complex, bool, str, bytes, _NONE})
_VIEWS = (type({}.keys()), type({}.values()), type({}.items()))
CONTAINERS = frozenset({list, tuple, dict, set, frozenset, str, bytes, range, *_VIEWS})
PLAIN = SCALARS | CONTAINERS
_LEAVES = SCALARS | {range}
_HASHED = frozenset({dict, set, frozenset, *_VIEWS})
_INDEXED = frozenset({list, tuple, str, bytes, range})
_INDEX = frozenset({int, bool})
_SLICE_PART = frozenset({int, bool, _NONE})
_C = frozenset({types.WrapperDescriptorType, types.MethodDescriptorType,
                types.BuiltinFunctionType, types.ClassMethodDescriptorType,
                types.GetSetDescriptorType, types.MemberDescriptorType,
                types.MethodWrapperType, _NONE})
_MISSING = object()
_MRO = type.__dict__["__mro__"].__get__
_TYPE_DICT = type.__dict__["__dict__"].__get__
_MODULE_DICT = types.ModuleType.__dict__["__dict__"].__get__
_OBJECT = {name: object.__dict__[name] for name in
           ("__eq__", "__ne__", "__hash__", "__repr__", "__str__", "__format__",
            "__getattribute__", "__class__")}
CONTAINER_WORDS = "lists, tuples, dicts, sets, strings, bytes and ranges"


class Refused(Exception):
    """An expression that is not evaluated because it could change the program."""


fresh = {}   # id → iterator made by the expression being evaluated (questions.py clears it)


def made(value):
    """``value``, an iterator the expression made: it may consume it."""
    fresh[id(value)] = value
    return value


def class_attribute(cls, name):
    """What ``name`` is in the first class of ``cls``'s MRO that defines it."""
    for k in _MRO(cls):
        found = _TYPE_DICT(k)
        if name in found:
            return found[name]
    return _MISSING


def runs_python(found):
    """Whether calling ``found`` (a class's slot) runs Python code."""
    return found is not _MISSING and type(found) not in _C


def own_code(value, slots):
    """``Class.__slot__`` for the first of ``slots`` written in Python, else None."""
    cls = type(value)
    for slot in slots:
        if runs_python(class_attribute(cls, slot)):
            return f"{cls.__qualname__}.{slot}"
    return None


def a_name(value):
    name = type(value).__qualname__
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def impure(value):
    """The first part of ``value`` that is not an exact builtin scalar or container of
    such (``value`` itself, an item, a key), or ``_MISSING`` when it is plain."""
    cls = type(value)
    if cls in _LEAVES:
        return _MISSING
    if cls not in CONTAINERS:
        return value
    stack, seen = [value], {}   # seen keeps what it saw alive: ids are not reused
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen[id(item)] = item
        for part in (_chain(item, item.values()) if type(item) is dict else item):
            kind = type(part)
            if kind in _LEAVES:
                continue
            if kind not in CONTAINERS:
                return part
            stack.append(part)
    return _MISSING


def plain(value):
    return impure(value) is _MISSING


_SLOTS = {"sorting": ("__lt__", "__gt__", "__eq__"), "hashing": ("__hash__", "__eq__"),
          "comparing": ("__eq__", "__ne__", "__lt__", "__gt__", "__le__", "__ge__"),
          "ordering": ("__lt__", "__gt__", "__le__", "__ge__", "__eq__"),
          "adding": ("__add__", "__radd__"), "showing": ("__repr__", "__str__", "__format__"),
          "formatting": ("__format__", "__str__", "__repr__")}


def need_plain(value, text, doing):
    """``value`` when it is plain, else Refused: ``doing`` it (e.g. "sorting") could run
    code."""
    part = impure(value)
    if part is _MISSING:
        return value
    code = own_code(part, _SLOTS.get(doing, _SLOTS["comparing"] + _SLOTS["hashing"]))
    inside = "" if part is value else " of an item"
    doing = "comparing" if doing == "ordering" else doing
    if code:
        raise Refused(f"{doing} `{text}` runs code ({code}{inside})")
    raise Refused(f"{doing} `{text}` is done only with builtin values, not {a_name(part)}"
                  + ("" if part is value else " in it"))


def iterable(value, text, verb="consume"):
    """``value`` when iterating it changes nothing and runs no program code."""
    if type(value) in CONTAINERS or id(value) in fresh:
        return value
    cls = type(value)
    if class_attribute(cls, "__next__") is not _MISSING:
        raise Refused(f"would {verb} the iterator `{text}`")
    code = own_code(value, ("__iter__", "__getitem__"))
    if code:
        raise Refused(f"iterating `{text}` runs code ({code})")
    raise Refused(f"iterating `{text}` ({a_name(value)}): only {CONTAINER_WORDS} are iterated")


def plain_items(value, text, doing):
    """The items of ``value`` (``iterable``), each checked by ``need_plain`` as it comes."""
    for item in iterable(value, text):
        yield need_plain(item, f"an item of {text}", doing)


def unpacked(values, text):
    """Items of ``values`` that a comprehension's ``for a, b in …`` unpacks."""
    for item in values:
        if type(item) not in CONTAINERS:
            iterable(item, f"an item of {text}")
        yield item


def truth(value, text):
    """``value``, when testing its truth runs no Python code."""
    if type(value) in PLAIN:
        return value
    code = own_code(value, ("__bool__", "__len__"))
    if code:
        raise Refused(f"testing `{text}` runs code ({code})")
    return value


def truths(value, text):
    for item in iterable(value, text):
        yield truth(item, f"an item of {text}")


def _identity_eq(value):
    cls = type(value)
    return class_attribute(cls, "__eq__") is _OBJECT["__eq__"] and class_attribute(cls, "__ne__") is _OBJECT["__ne__"]


def hashable(value, text):
    """``value``, when hashing and comparing it as a key runs no Python code."""
    if type(value) in SCALARS or plain(value) or (
            _identity_eq(value) and class_attribute(type(value), "__hash__") is _OBJECT["__hash__"]):
        return value
    return need_plain(value, text, "hashing")


def shown(value, text, doing="showing"):
    """``value``, when ``str``, ``repr`` or ``format`` of it runs no Python code."""
    if type(value) in SCALARS or plain(value):
        return value
    if type(value) is types.MethodType:
        shown(value.__self__, text, doing)
    if type(value) not in CONTAINERS and \
            not own_code(value, ("__repr__", "__str__", "__format__")):
        return value
    return need_plain(value, text, doing)


_EQUALITY = (operator.eq, operator.ne)


def compare(op, text, a, b):
    """``op(a, b)`` for a comparison other than ``is``, ``in``."""
    ta, tb = type(a), type(b)
    if ta in SCALARS and tb in SCALARS:
        return op(a, b)
    if op in _EQUALITY:
        ok_a = ta in SCALARS or ta in CONTAINERS or _identity_eq(a)
        ok_b = tb in SCALARS or tb in CONTAINERS or _identity_eq(b)
        if ok_a and ok_b:
            if ta in CONTAINERS and tb in CONTAINERS:
                need_plain(a, text, "comparing")
                need_plain(b, text, "comparing")
            return op(a, b)
        code = own_code(a if not ok_a else b, ("__eq__", "__ne__"))
        if code:
            raise Refused(f"`{text}` runs code ({code})")
    need_plain(a, text, "ordering")
    need_plain(b, text, "ordering")
    return op(a, b)


def contains(text, needle, hay, hay_text):
    """``needle in hay``."""
    kind = type(hay)
    if kind is str or kind is bytes:
        if type(needle) in SCALARS:
            return needle in hay
    elif kind in _HASHED and kind is not _VIEWS[1]:
        if kind is _VIEWS[2]:
            need_plain(hay, hay_text, "looking in")
        return hashable(needle, text) in hay
    elif kind is range and type(needle) in _INDEX:
        return needle in hay
    need_plain(needle, text, "looking for")
    if kind in CONTAINERS:
        need_plain(hay, hay_text, "looking in")
        return needle in hay
    return any(item is needle or item == needle for item in plain_items(hay, hay_text, "looking in"))


def chain(text, left, *rest):
    """``left op1 c1 op2 c2 …``: ``rest`` is (name of op, comparator thunk, …), each
    thunk called only when the comparisons before it held."""
    result = True
    for k in range(0, len(rest), 2):
        right = rest[k + 1]()
        result = truth(COMPARISONS[rest[k]](text, left, right), text)
        if not result:
            return result
        left = right
    return result


COMPARISONS = {
    "Eq": lambda text, a, b: compare(operator.eq, text, a, b),
    "NotEq": lambda text, a, b: compare(operator.ne, text, a, b),
    "Lt": lambda text, a, b: compare(operator.lt, text, a, b),
    "LtE": lambda text, a, b: compare(operator.le, text, a, b),
    "Gt": lambda text, a, b: compare(operator.gt, text, a, b),
    "GtE": lambda text, a, b: compare(operator.ge, text, a, b),
    "In": lambda text, a, b: contains(text, a, b, text),
    "NotIn": lambda text, a, b: not contains(text, a, b, text),
    "Is": lambda text, a, b: a is b,
    "IsNot": lambda text, a, b: a is not b,
}


def binop(op, text, a, b):
    """``op(a, b)`` for an arithmetic or bitwise operator."""
    ta, tb = type(a), type(b)
    if ta in NUMBERS and tb in NUMBERS:
        return op(a, b)
    if ta in PLAIN and tb in PLAIN:
        if op is operator.mod and (ta is str or ta is bytes):
            need_plain(b, text, "formatting")
        elif ta in _HASHED or tb in _HASHED:
            need_plain(a, text, "computing")
            need_plain(b, text, "computing")
        return op(a, b)
    code = own_code(a, _BINARY.get(op, ())) or own_code(b, _BINARY.get(op, ()))
    raise Refused(f"`{text}` runs code ({code})" if code else
                  f"`{text}` is computed only with builtin values, not {a_name(a if ta not in PLAIN else b)}")


def unary(op, text, value):
    if type(value) in NUMBERS:
        return op(value)
    code = own_code(value, ("__neg__", "__pos__", "__invert__"))
    raise Refused(f"`{text}` runs code ({code})" if code else f"`{text}` is computed only for numbers")


_BINARY = {}
for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift",
              "and", "or", "xor", "matmul"):
    _BINARY[getattr(operator, _name if _name not in ("and", "or") else _name + "_")] = (
        f"__{_name}__", f"__r{_name}__")


def item(text, value, key):
    """``value[key]``."""
    kind, key_kind = type(value), type(key)
    if kind is dict:
        return value[hashable(key, text)]
    if kind in _INDEXED:
        if key_kind in _INDEX:
            return value[key]
        if key_kind is slice and type(key.start) in _SLICE_PART \
                and type(key.stop) in _SLICE_PART and type(key.step) in _SLICE_PART:
            return value[key]
        raise Refused(f"`{text}`: an index is an int or a slice of ints, not {a_name(key)}")
    code = own_code(value, ("__getitem__", "__class_getitem__", "__missing__"))
    raise Refused(f"reading `{text}` runs code ({code})" if code else
                  f"reading `{text}` ({a_name(value)}): only lists, tuples, dicts, strings, bytes "
                  "and ranges are indexed")


def mapping(value, text):
    """``value`` for ``**value``: a dict."""
    if type(value) is dict:
        return value
    raise Refused(f"`**{text}` unpacks only a dict, not {a_name(value)}")


def attribute(value, name, text):
    """``value.name`` when reading it runs no Python code."""
    cls = type(value)
    if cls in PLAIN:
        return getattr(value, name)
    why = _attribute_code(value, cls, name)
    if why:
        raise Refused(f"reading `{text}` runs code ({why})")
    return getattr(value, name)


def _descriptor_code(found):
    if isinstance(found, property):
        return "a property"
    if runs_python(class_attribute(type(found), "__get__")):
        return f"a descriptor, {type(found).__qualname__}"
    return None


def _is_data(found):
    kind = type(found)
    return class_attribute(kind, "__set__") is not _MISSING or class_attribute(kind, "__delete__") is not _MISSING


def _attribute_code(value, cls, name):
    """Why reading ``value.name`` runs Python code, or None."""
    if cls is types.ModuleType:
        own = _MODULE_DICT(value)
        return "the module's __getattr__" if name not in own and "__getattr__" in own else None
    if class_attribute(cls, "__getattribute__") is not _OBJECT["__getattribute__"] \
            and runs_python(class_attribute(cls, "__getattribute__")):
        return f"{cls.__qualname__}.__getattribute__"
    found = class_attribute(cls, name)
    if found is not _MISSING and _is_data(found):
        return _descriptor_code(found)
    if issubclass(cls, type):
        on_class = class_attribute(value, name)
        if on_class is not _MISSING:
            return None if isinstance(on_class, property) else _descriptor_code(on_class)
    else:
        holder = class_attribute(cls, "__dict__")
        if type(holder) is types.GetSetDescriptorType:
            own = holder.__get__(value, cls)
            if type(own) is dict and name in own:
                return None
    if found is not _MISSING:
        return _descriptor_code(found)
    if runs_python(class_attribute(cls, "__getattr__")):
        return f"{cls.__qualname__}.__getattr__"
    return None
