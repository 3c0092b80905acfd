"""The calls a reader's expression may make: ``guard(func, texts, *args)`` is every call
of a checked expression (expressions.py).

It calls ``func`` only when it is one of the pure builtins of ``PURE_BUILTINS`` or a
read-only method of ``READ_ONLY_METHODS`` bound to a value of exactly that builtin
type, and only with arguments it cannot change or run code of (readonly.py): ``len``
of a builtin container; ``list``, ``tuple``, ``enumerate``, ``zip``, ``reversed``,
``iter`` over a builtin container or an iterator the expression made (whose result
it may then consume); ``next`` only of such an iterator; ``sorted``, ``min``,
``max``, ``sum``, ``set``, ``frozenset``, ``dict`` over plain items; ``any`` and
``all`` of items whose truth runs no code; the numeric builtins of scalars; ``str``
and ``repr`` of values whose text runs no code. ``texts`` are the arguments' source
texts, for the reasons given.
"""

import builtins
import types

from .readonly import (CONTAINER_WORDS, CONTAINERS, SCALARS, Refused, a_name, class_attribute,
                       fresh, hashable, iterable, made, need_plain, own_code, plain_items,
                       runs_python,
                       shown, truth, truths)

PURE_BUILTINS = ("abs", "all", "any", "ascii", "bin", "bool", "chr", "dict", "divmod",
                 "enumerate", "float", "frozenset", "hex", "int", "isinstance", "issubclass",
                 "iter", "len", "list", "max", "min", "next", "oct", "ord", "range", "repr",
                 "reversed", "round", "set", "sorted", "str", "sum", "tuple", "type", "zip")

_STR = ("capitalize", "casefold", "center", "count", "endswith", "find", "index", "isalnum",
        "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower",
        "isnumeric", "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip",
        "partition", "removeprefix", "removesuffix", "replace", "rfind", "rindex",
        "rjust", "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith",
        "strip", "swapcase", "title", "upper", "zfill")
_SET = ("copy", "difference", "intersection", "isdisjoint", "issubset", "issuperset",
        "symmetric_difference", "union")
READ_ONLY_METHODS = {
    dict: frozenset(("copy", "get", "items", "keys", "values")),
    list: frozenset(("copy", "count", "index")),
    tuple: frozenset(("count", "index")),
    str: frozenset(_STR),
    bytes: frozenset(_STR + ("decode", "hex")),
    set: frozenset(_SET),
    frozenset: frozenset(_SET),
    int: frozenset(("bit_count", "bit_length")),
    float: frozenset(("is_integer",)),
}
_TAKES_KEY = frozenset(("max", "min", "sorted"))
_KEYWORDS = frozenset(("key", "default", "reverse"))


def _text(texts, k):
    return texts[min(k, len(texts) - 1)] if texts else "…"


def _len(func, texts, args):
    for k, value in enumerate(args):
        if type(value) not in CONTAINERS:
            code = own_code(value, ("__len__",))
            raise Refused(f"len({_text(texts, k)}) runs code ({code})" if code else
                          f"len() is taken only of {CONTAINER_WORDS}, not of "
                          f"`{_text(texts, k)}` ({a_name(value)})")
    return func(*args)


def _iterating(func, texts, args):
    """list, tuple: every argument iterated."""
    return func(*(iterable(v, _text(texts, k)) for k, v in enumerate(args)))


def _lazy(func, texts, args):
    """enumerate, zip, reversed, iter: an iterator the expression may consume."""
    if func is enumerate and len(args) > 1:
        args = (args[0], *(need_plain(v, _text(texts, k + 1), "counting from")
                           for k, v in enumerate(args[1:])))
        return made(func(iterable(args[0], _text(texts, 0)), *args[1:]))
    if func is iter and len(args) > 1:
        raise Refused("iter() with a sentinel calls a function")
    return made(func(*(iterable(v, _text(texts, k)) for k, v in enumerate(args))))


def _next(func, texts, args):
    if args and (id(args[0]) in fresh or type(args[0]) in CONTAINERS):
        return func(*args)
    if args:
        iterable(args[0], _text(texts, 0), "advance")
    return func(*args)


def _items(doing):
    def rule(func, texts, args, kwargs):
        if len(args) == 1:
            source = args[0]
            if type(source) in CONTAINERS:
                # a dict is iterated by its keys: its values are never compared
                need_plain(source.keys() if type(source) is dict else source,
                           _text(texts, 0), doing)
                return func(source, **kwargs)
            return func(plain_items(source, _text(texts, 0), doing), **kwargs)
        for k, value in enumerate(args):
            need_plain(value, _text(texts, k), doing)
        return func(*args, **kwargs)
    return rule


def _any_all(func, texts, args):
    return func(*(truths(v, _text(texts, k)) for k, v in enumerate(args)))


def _scalars(func, texts, args):
    for k, value in enumerate(args):
        if type(value) not in SCALARS:
            code = own_code(value, ("__index__", "__int__", "__float__", "__abs__",
                                     "__round__", "__divmod__", "__trunc__"))
            name = func.__name__
            raise Refused(f"{name}({_text(texts, k)}) runs code ({code})" if code else
                          f"{name}() takes only numbers and strings here, not "
                          f"`{_text(texts, k)}` ({a_name(value)})")
    return func(*args)


def _bool(func, texts, args):
    return func(*(truth(v, _text(texts, k)) for k, v in enumerate(args)))


def _shown(func, texts, args):
    return func(*(shown(v, _text(texts, k)) for k, v in enumerate(args)))


def _plain_class(cls, text):
    if type(cls) is type:
        return cls
    if type(cls) is tuple:
        for inner in cls:
            _plain_class(inner, text)
        return cls
    raise Refused(f"`{text}` is not a class whose checks run no code")


def _isinstance(func, texts, args):
    if len(args) == 2:
        _plain_class(args[1], _text(texts, 1))
        value = args[0]
        if func is issubclass:
            _plain_class(value, _text(texts, 0))
        elif type(value) not in SCALARS and type(value) not in CONTAINERS:
            cls = type(value)
            if runs_python(class_attribute(cls, "__getattribute__")) or \
                    class_attribute(cls, "__class__") is not class_attribute(object, "__class__"):
                raise Refused(f"reading the class of `{_text(texts, 0)}` runs code")
    return func(*args)


def _type(func, texts, args):
    if len(args) != 1:
        raise Refused("type() with three arguments makes a class")
    return func(*args)


def _range(func, texts, args):
    for k, value in enumerate(args):
        if type(value) is not int and type(value) is not bool:
            raise Refused(f"range() takes only ints here, not `{_text(texts, k)}` ({a_name(value)})")
    return func(*args)


_RULES = {}
for _names, _rule in ((("len",), _len), (("list", "tuple"), _iterating),
                      (("enumerate", "zip", "reversed", "iter"), _lazy), (("next",), _next),
                      (("any", "all"), _any_all),
                      (("abs", "bin", "chr", "divmod", "float", "hex", "int", "oct", "ord",
                        "round"), _scalars),
                      (("bool",), _bool), (("ascii", "repr", "str"), _shown),
                      (("isinstance", "issubclass"), _isinstance), (("type",), _type),
                      (("range",), _range)):
    for _name in _names:
        _RULES[id(getattr(builtins, _name))] = (getattr(builtins, _name), _rule, False)
for _name, _doing in (("sorted", "sorting"), ("min", "ordering"), ("max", "ordering"),
                      ("sum", "adding"), ("set", "hashing"), ("frozenset", "hashing"),
                      ("dict", "hashing")):
    _RULES[id(getattr(builtins, _name))] = (getattr(builtins, _name), _items(_doing), True)
_PURE = {id(getattr(builtins, name)) for name in PURE_BUILTINS}
assert _PURE == set(_RULES)


def _name(func):
    return getattr(func, "__qualname__", None) or getattr(func, "__name__", None) \
        or type(func).__name__


def _method(func, texts, args, kwargs):
    owner = func.__self__
    name = func.__name__
    if name == "join":
        return func(*(iterable(v, _text(texts, k)) for k, v in enumerate(args)))
    if type(owner) in (set, frozenset):
        need_plain(owner, f"the items of the {type(owner).__name__}", "hashing")
        return func(*(need_plain(v, _text(texts, k), "hashing") if type(v) in CONTAINERS
                      else frozenset(plain_items(v, _text(texts, k), "hashing"))
                      for k, v in enumerate(args)))
    if name in ("count", "index") and type(owner) in (list, tuple):
        need_plain(owner, f"the items of the {type(owner).__name__}", "comparing")
    elif name == "get" and type(owner) is dict:
        return func(hashable(args[0], _text(texts, 0)), *args[1:]) if args else func()
    for k, value in enumerate(args):
        need_plain(value, _text(texts, k), "passing")
    for key, value in kwargs.items():
        need_plain(value, key, "passing")
    return func(*args, **kwargs)


def guard(func, texts, *args, **kwargs):
    """Call ``func`` when it is a pure builtin or a read-only builtin method and the call
    can change nothing, else raise Refused with the reason."""
    rule = _RULES.get(id(func))
    if rule is not None and rule[0] is func:
        if kwargs:
            if func.__name__ not in _TAKES_KEY or set(kwargs) - _KEYWORDS:
                raise Refused(f"{_name(func)}() with these keywords is not allowed in an expression")
            key = kwargs.get("key")
            if key is not None and (id(key) not in _PURE or _RULES[id(key)][0] is not key):
                raise Refused(f"{_name(func)}(key=…) takes only a pure builtin in an expression")
        if rule[2]:
            return rule[1](func, texts, args, kwargs)
        return rule[1](func, texts, args)
    if type(func) is types.BuiltinMethodType:
        owner = getattr(func, "__self__", None)
        allowed = READ_ONLY_METHODS.get(type(owner))
        if allowed is not None and func.__name__ in allowed:
            return _method(func, texts, args, kwargs)
    raise Refused(f"calling {_name(func)} is not allowed in an expression "
                  "(only pure builtins and read-only methods)")
