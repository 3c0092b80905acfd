"""Functions made for questions: checked expressions (expressions.py) compiled into the body
of a function that reads a frame's locals from the recorder's ``prev`` of the step.

``prev`` is {name: (value, VALUE)} for the locals bound at the step (steps.py; a container
held from step to step has its trace/kept.py ``Kept`` third). The names
an expression reads that are bound there become locals of the function (a comprehension
sees them as any closure would); every other name is a global of the function, which is
made with the frame's globals: the same lookups as ``eval`` in the frame, without reading
``frame.f_locals`` (a proxy looked up by name on 3.13 and later) at each step. A function
is made for one set of bound names: the recorder makes a new ``prev`` whenever a name is
bound or unbound, and questions.py makes new functions then.

``watch_function`` also skips a watch whose value cannot have changed. The recorder keeps
a local's pair in ``prev`` exactly while its value is the same object of an immutable
scalar type (steps.py ``_step``); a checked expression that reads only such locals, the
pure builtins and literals calls nothing but pure builtins and read-only methods of those
scalars, so its value is the one it had while none of its locals' pairs changed. (A
global that shadows such a builtin is noticed by questions.py; a program that replaces
``builtins.len`` itself is not.)
"""

import ast
from types import FunctionType

from .expressions import PURE_BUILTINS, Refused, compile_expression, compile_tree, error_text

_FUNCTION = "__question"
FILE = "<loopstep expression>"


def names_of(compiled):
    """The names the expressions ``compiled`` read (comprehension variables included)."""
    return frozenset(node.id for c in compiled for node in ast.walk(c.tree)
                     if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load))


class Failed:
    """An expression that could not be compiled: every evaluation gives its error."""

    __slots__ = ("text", "error")

    def __init__(self, text, error):
        self.text = text
        self.error = error


class Group:
    """Checked expressions evaluated by one call; ``codes`` caches the code of its
    functions by the set of bound names they were made for."""

    __slots__ = ("parts", "names", "text", "codes")

    def __init__(self, parts):
        self.parts = tuple(parts)
        self.names = names_of(self.parts)
        self.text = parts[0].text if len(parts) == 1 else ""
        self.codes = {}

    def code(self, make, bound):
        """What ``make`` (``tuple_function`` or ``watch_function``) makes of the group for
        the frame's ``bound`` names, made once per set of those it reads."""
        key = (make, frozenset(bound) & self.names)
        made = self.codes.get(key)
        if made is None:
            made = self.codes[key] = make(self.parts, key[1], FILE)
        return made


def compile_group(text):
    """A Group of the one expression ``text``, or Failed with the reader's error text."""
    try:
        return Group([compile_expression(text, FILE)])
    except (SyntaxError, Refused, ValueError) as exc:
        return Failed(text, error_text(exc))


class Frame:
    """A frame's functions for one set of bound local names, i.e. for one ``prev``."""

    __slots__ = ("prev", "globals", "functions", "watch", "values", "builtins")

    def __init__(self, prev, globals_, before=None):
        self.prev = prev
        self.globals = globals_
        self.functions = {}   # Group → function of tuple_function
        self.watch = None     # the function of watch_function, its arguments bound
        # what its ``__note`` belongs to (watches.py): the frame's, kept from ``before``
        self.values = before.values if before is not None else None
        self.builtins = ()    # pure builtin names the watches read as globals

    def make_tuple(self, group):
        """``group``'s function of ``prev`` giving the tuple of its values."""
        function = self.functions[group] = FunctionType(group.code(tuple_function, self.prev),
                                                        self.globals)
        return function

    def make_watch(self, group):
        """The watches' function with this frame's ``prev``, a fresh ``__seen`` and
        ``self.values.note`` bound: called as ``watch()``, or ``watch(True)`` for all."""
        code, self.builtins, reads = group.code(watch_function, self.prev)
        function = FunctionType(code, self.globals)
        function.__defaults__ = (False, self.prev, [None] * reads, self.values.note)
        self.watch = function
        return function


def _function_code(source, expressions, filename):
    """Compile ``source`` (one ``def __question``) with each name ``__expr_K`` replaced by the
    checked expression ``expressions[K]``."""
    tree = ast.parse(source, filename)

    class Fill(ast.NodeTransformer):
        def visit_Name(self, node):
            if node.id.startswith("__expr_"):
                return ast.copy_location(expressions[int(node.id[7:])].tree.body, node)
            return node

    module = compile_tree(ast.fix_missing_locations(Fill().visit(tree)), filename, "exec")
    return next(c for c in module.co_consts if getattr(c, "co_name", None) == _FUNCTION)


def tuple_function(compiled, bound, filename):
    """Code of ``def __question(__locals)`` giving the tuple of the values of ``compiled``."""
    reads = sorted(names_of(compiled) & bound)
    lines = [f"def {_FUNCTION}(__locals):"]
    lines += [f"    {name} = __locals[{name!r}][0]" for name in reads]
    values = "".join(f"__expr_{k}, " for k in range(len(compiled)))
    lines.append(f"    return ({values})")
    return _function_code("\n".join(lines) + "\n", compiled, filename)


def watch_function(compiled, bound, filename):
    """Code of ``def __question(__all, __locals, __seen, __note)``, the pure builtin
    names its watches read as globals and the number of locals it reads.

    It evaluates each watch ``compiled[K]`` that may have changed and calls
    ``__note(K, value)`` (``__note(K, None, exception)`` when it raised). ``__seen``
    holds the pairs of ``__locals`` read at its previous call (None before the first);
    ``__all`` evaluates every watch."""
    bound = frozenset(bound)
    reads = sorted(names_of(compiled) & bound)
    slot = {name: k for k, name in enumerate(reads)}
    lines = [f"def {_FUNCTION}(__all=False, __locals=None, __seen=None, __note=None):"]
    for k, name in enumerate(reads):
        lines += [f"    __p{k} = __locals[{name!r}]",
                  f"    __c{k} = __p{k} is not __seen[{k}]",
                  f"    __seen[{k}] = __p{k}",
                  f"    {name} = __p{k}[0]"]
    builtins = set()
    for k, c in enumerate(compiled):
        names = names_of([c])
        others = names - bound
        indent = "    "
        if others <= frozenset(PURE_BUILTINS):
            builtins |= others
            flags = "".join(f" or __c{slot[name]}" for name in sorted(names & bound))
            lines.append(f"    if __all{flags}:")
            indent = "        "
        lines += [f"{indent}try:",
                  f"{indent}    __v = __expr_{k}",
                  f"{indent}except Exception as __e:",
                  f"{indent}    __note({k}, None, __e)",
                  f"{indent}else:",
                  f"{indent}    __note({k}, __v)"]
    lines.append("    return None")
    code = _function_code("\n".join(lines) + "\n", compiled, filename)
    return code, tuple(sorted(builtins)), len(reads)
