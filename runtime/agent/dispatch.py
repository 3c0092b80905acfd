"""A declared function answered otherwise for one run, its code untouched.

``Dispatchers`` gives a function, for one run, a dispatcher as its ``__code__``: the
same parameters and name, the same function object (so every reference to it — a
handler table, a ``SimpleNamespace`` — reaches it). The dispatcher asks ``answer(frame,
function)`` (the frame holds the call's arguments) for a value; ``None`` runs the
function's own code (a twin function: same globals, defaults and name), observed as
before. The dispatcher's frames are in ``FORK_FILE``, which the trace leaves out of its
stacks. An ``async def`` gets an ``async def`` dispatcher, whose answer is awaited as the
function's own result would be. ``uninstall`` puts every code back. A fork (runtime/questions/forks.py) and a
recording's tool outputs (runtime/recording/tools.py) answer calls through it.
"""

import inspect
import sys
import types
import warnings

from ..trace.steps import FORK_FILE

_HOOK = "__loopstep_dispatch_hook__"


class Dispatchers:
    def __init__(self):
        self.made = set()      # the dispatchers' codes (an installed function is skipped)
        self._undo = []        # (function, its own code)

    def install(self, function, answer):
        """Point ``function`` at a dispatcher asking ``answer(frame, function)``: a 1-tuple
        ``(value,)`` answers the call; None runs the function's own code. Returns the
        dispatcher's code."""
        code = function.__code__
        twin = types.FunctionType(code, function.__globals__, function.__name__,
                                  function.__defaults__, function.__closure__)
        twin.__kwdefaults__ = function.__kwdefaults__
        awaited = bool(code.co_flags & inspect.CO_COROUTINE)

        def hook():
            frame = sys._getframe(1)
            answered = answer(frame, function)
            if answered is not None:
                return _ready(answered[0]) if awaited else answered[0]
            args, kwargs = call_arguments(frame.f_code, frame.f_locals)
            return twin(*args, **kwargs)

        hook.__code__ = hook.__code__.replace(co_filename=FORK_FILE)   # left out of stacks
        dispatcher = dispatcher_code(code, hook)
        self.made.add(dispatcher)
        function.__code__ = dispatcher
        self._undo.append((function, code))
        return dispatcher

    def replaced(self):
        """The functions' own codes, now replaced by dispatchers."""
        return [code for _function, code in self._undo]

    def uninstall(self):
        for function, code in reversed(self._undo):
            function.__code__ = code
        self._undo.clear()
        self.made.clear()


def parameters(code):
    """(positional-only, positional, *name, keyword-only, **name) of a code object."""
    names = code.co_varnames
    posonly, argcount, kwonly = code.co_posonlyargcount, code.co_argcount, code.co_kwonlyargcount
    at = argcount + kwonly
    star = names[at] if code.co_flags & 0x04 else None
    at += star is not None
    starstar = names[at] if code.co_flags & 0x08 else None
    return (names[:posonly], names[posonly:argcount], star,
            names[argcount:argcount + kwonly], starstar)


def dispatcher_code(code, hook):
    """A code with ``code``'s parameters and name whose body returns ``hook()``."""
    posonly, positional, star, kwonly, starstar = parameters(code)
    listed = list(posonly) + (["/"] if posonly else []) + list(positional)
    if star or kwonly:
        listed.append("*" + (star or ""))
    listed += kwonly
    if starstar:
        listed.append("**" + starstar)
    head, call = ("async def", "await ") if code.co_flags & inspect.CO_COROUTINE else ("def", "")
    source = f"{head} answer({', '.join(listed)}):\n    return {call}{_HOOK!r}()\n"
    free = code.co_freevars   # a closure's: the dispatcher has as many cells (unused)
    if free:
        inner = "".join(f"    {line}\n" for line in source.splitlines())
        inner = inner.replace("    return", f"    {'; '.join(free)}\n        return", 1)
        source = (f"def outer():\n    {' = '.join(free)} = None\n{inner}"
                  "    return answer\n")
    scope = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)   # "'str' object is not callable"
        exec(compile(source, FORK_FILE, "exec", dont_inherit=True), scope)
    made = scope["outer"]().__code__ if free else scope["answer"].__code__
    consts = tuple(hook if item == _HOOK else item for item in made.co_consts)
    return made.replace(co_consts=consts, co_name=code.co_name, co_qualname=code.co_qualname)


async def _ready(value):
    """An async dispatcher's answer, awaited."""
    return value


_ready.__code__ = _ready.__code__.replace(co_filename=FORK_FILE)   # left out of stacks


def call_arguments(code, local):
    """(args, kwargs) that call a function of ``code`` as the frame's locals were called."""
    posonly, positional, star, kwonly, starstar = parameters(code)
    args = [local[name] for name in (*posonly, *positional)]
    if star:
        args.extend(local[star])
    kwargs = {name: local[name] for name in kwonly}
    if starstar:
        kwargs.update(local[starstar])
    return args, kwargs
