"""Whether a call of a tool handler is a recorded tool execution (docs/recordings.md,
"Recorded tool outputs"), whatever the handler's shape.

A handler is reached through an entry of the lesson's ``[agent] tools``: a function, a
lambda or a ``def`` in a handler table, a bound method, a callable object, a
``functools.partial`` of any of them. ``unwrap`` gives the function that runs and the
arguments the entry binds before the call's own (a method's instance, a partial's
arguments); ``views`` reads a call's own arguments from the frame of that function (the
entries that could have made the call: their bound arguments are the frame's); ``pairs``
says whether a recorded input is the call's —

- by name: every argument in the recorded input, or at its default (``run_bash(command)``,
  ``lambda **kw: …``);
- whole: one argument is the recorded input (``handle(args)``), or a tool_use block
  holding it (``execute(block)``);
- by position: the call's arguments, in order, are the recorded input's values (a
  parameter named otherwise, ``*args``), the rest at their defaults.

The call's arguments are read as the recording has them: the run's folder as the
recording's ``cwd``.
"""

import functools
import json
import types

from ..agent import parts
from ..agent.dispatch import parameters


def unwrap(member):
    """``(function, bound arguments, bound keywords)`` of a handler, or None when no Python
    function of the lesson runs (a builtin)."""
    args, keywords = (), {}
    while isinstance(member, functools.partial):
        args = member.args + args
        keywords = {**member.keywords, **keywords}
        member = member.func
    if isinstance(member, types.MethodType):
        args, member = (member.__self__, *args), member.__func__
    elif not isinstance(member, (types.FunctionType, type)) and callable(member):
        call = getattr(type(member), "__call__", None)  # noqa: B004  (the method itself)
        if isinstance(call, types.FunctionType):
            args, member = (member, *args), call
    if not isinstance(member, types.FunctionType):
        return None
    return member, args, keywords


def _same(a, b):
    if a is b:
        return True
    try:
        return bool(a == b)
    except Exception:   # an object whose == raises is no match
        return False


class View:
    """One reading of a call's own arguments: ``key`` (the table's key, None for a plain
    function), ``called`` {parameter: value} (``**kwargs`` merged in), ``values`` in order,
    ``defaults`` {parameter: default}."""

    __slots__ = ("key", "called", "values", "defaults")

    def __init__(self, key, called, values, defaults):
        self.key, self.called, self.values, self.defaults = key, called, values, defaults


def _defaults(function, code):
    posonly, positional, _star, _kwonly, _starstar = parameters(code)
    named = (*posonly, *positional)
    found = dict(zip(named[len(named) - len(function.__defaults__ or ()):],
                     function.__defaults__ or ()))
    found.update(function.__kwdefaults__ or {})
    return found


def views(frame, function, routes, shown=lambda value: value):
    """The readings of the call in ``frame`` (a call of ``function``), one per route
    ``(key, bound args, bound keywords)`` whose bound arguments are the frame's; a plain
    reading when none is. ``shown``: a value as the recording has it."""
    code = frame.f_code
    local = frame.f_locals
    posonly, positional, star, kwonly, starstar = parameters(code)
    names = [*posonly, *positional]
    given = [(name, local[name]) for name in names if name in local]
    if star:
        given += [(None, value) for value in local.get(star) or ()]
    extra = dict(local.get(starstar) or {}) if starstar else {}
    defaults = _defaults(function, code)
    found = []
    for key, args, keywords in routes or [(None, (), {})]:
        if len(args) > len(given) or not all(_same(a, v) for a, (_n, v) in zip(args, given)):
            continue
        if not all(_same(value, local[name] if name in local else extra.get(name))
                   for name, value in keywords.items()):
            continue
        own = given[len(args):]
        called = {name: shown(value) for name, value in own if name is not None
                  and name not in keywords}
        called.update((name, shown(local[name])) for name in kwonly
                      if name in local and name not in keywords)
        called.update((name, shown(value)) for name, value in extra.items()
                      if name not in keywords)
        values = [shown(value) for name, value in own if name not in keywords]
        values += [called[name] for name in kwonly if name in called]
        values += [shown(value) for name, value in extra.items() if name not in keywords]
        unnamed = any(name is None for name, _value in own)
        found.append(View(key, None if unnamed else called, values, defaults))
    if not found and routes:
        return views(frame, function, None, shown)
    return found


def _by_name(recorded, called, defaults):
    """Every argument in the recorded input, or at its default; every recorded key an
    argument."""
    if called is None:
        return False
    for name, value in called.items():
        if name in recorded:
            if not _same(recorded[name], value):
                return False
        elif name not in defaults or not _same(defaults[name], value):
            return False
    return all(name in called for name in recorded)


def _whole(recorded, value, shown):
    if isinstance(value, dict) and not parts.is_tool_use(value):
        return _same(value, recorded)
    if parts.is_tool_use(value):
        return _same(shown(parts.field(value, "input")), recorded)
    return False


def pairs(recorded, view, shown=lambda value: value):
    """Whether ``recorded`` (a recorded input) is the input of the call ``view`` reads."""
    if not isinstance(recorded, dict):
        return False
    if _by_name(recorded, view.called, view.defaults):
        return True
    if any(_whole(recorded, value, shown) for value in view.values):
        return True
    wanted = list(recorded.values())
    got = view.values
    if len(got) < len(wanted) or not all(_same(a, b) for a, b in zip(wanted, got)):
        return False
    rest = got[len(wanted):]
    return all(value is None for value in rest) and bool(wanted or not got)


def shown_input(view):
    """The call's input as JSON text (for a message): the one dict or tool_use block it
    was given, else its arguments by name (those at their defaults left out), else in
    order."""
    value = view.values if view.called is None else {
        name: item for name, item in view.called.items()
        if name not in view.defaults or not _same(view.defaults[name], item)}
    if len(view.values) == 1 and isinstance(view.values[0], dict):
        value = view.values[0]
    if len(view.values) == 1 and parts.is_tool_use(view.values[0]):
        value = parts.field(view.values[0], "input")
    return json.dumps(value, ensure_ascii=False, default=str)
