"""Reader expressions (watches, breakpoint conditions, logpoint parts) made safe to
evaluate inside the recorded program without changing it.

An expression is parsed and checked before it runs: only names, attributes,
subscripts, literals, operators, f-strings and comprehensions are allowed, and
every call goes through ``guard``, which lets through only the pure builtins of
``PURE_BUILTINS`` and the read-only methods of ``READ_ONLY_METHODS`` called on
values of exactly those builtin types. Anything else (assignment expressions,
lambdas, ``print``, ``list.append``, ``dict.clear``, a call of a program
function, a name or attribute starting with ``_``) is refused with an error text
and never evaluated. A value's own special methods (``__len__``, ``__eq__``,
``__repr__`` of a user class, a property) may still run; the lesson values are
builtin containers. A checked expression stores no name in the frame: questions.py
evaluates it in a function of its own (question_code.py) that reads the
frame's locals from the recorder's copy of them, and redirects the program's
output while evaluating, so a refused or failing expression leaves the run
exactly as it was.
"""

import ast
import builtins
import types
import warnings


PURE_BUILTINS = ("abs", "all", "any", "ascii", "bin", "bool", "chr", "dict", "divmod",
                 "enumerate", "float", "frozenset", "hex", "int", "isinstance", "issubclass",
                 "len", "list", "max", "min", "oct", "ord", "range", "repr", "reversed",
                 "round", "set", "sorted", "str", "sum", "tuple", "type", "zip")

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
_PURE = {id(getattr(builtins, name)): getattr(builtins, name) for name in PURE_BUILTINS}
_MARK = "\x00loopstep:"   # placeholder constants, bound to objects after compiling
_TAKES_KEY = frozenset(id(getattr(builtins, name)) for name in ("max", "min", "sorted"))

_ALLOWED = (ast.Expression, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.IfExp, ast.Dict,
            ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
            ast.comprehension, ast.Compare, ast.Call, ast.keyword, ast.FormattedValue,
            ast.JoinedStr, ast.Constant, ast.Attribute, ast.Subscript, ast.Starred,
            ast.Name, ast.List, ast.Tuple, ast.Slice, ast.expr_context, ast.boolop,
            ast.operator, ast.unaryop, ast.cmpop)


class Refused(Exception):
    """An expression that is not evaluated because it could change the program."""


def _check(tree):
    """Raise Refused for the first construct outside the allowed set."""
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise Refused(f"{type(node).__name__} is not allowed in an expression")
        if isinstance(node, ast.Name) and node.id.startswith("__"):
            raise Refused(f"the name {node.id} is not allowed in an expression")
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            raise Refused(f"the attribute .{node.attr} is not allowed in an expression")
        if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Starred, ast.List,
                             ast.Tuple)) and not isinstance(node.ctx, ast.Load):
            if not _is_target(tree, node):
                raise Refused("assignment is not allowed in an expression")


def _is_target(tree, node):
    """Whether ``node`` is (inside) the target of a comprehension's ``for``."""
    for comp in ast.walk(tree):
        if isinstance(comp, ast.comprehension):
            if any(inner is node for inner in ast.walk(comp.target)):
                return isinstance(node, (ast.Name, ast.Tuple, ast.List, ast.Starred))
    return False


class _Guarded(ast.NodeTransformer):
    """``f(a, k=b)`` → ``GUARD(f, a, k=b)``: every call is checked as it runs.

    A call of a pure builtin by its name without keywords takes a fast path when the
    name is that builtin: ``len(x)`` → ``len(x) if len is LEN else GUARD(len, x)``.
    GUARD and LEN are constants of the compiled code (``_bind``), so evaluation needs
    no names beside the frame's own."""

    def visit_Call(self, node):
        self.generic_visit(node)
        guard = ast.Constant(_MARK + "guard")
        checked = ast.copy_location(ast.Call(func=guard, args=[node.func] + node.args,
                                             keywords=node.keywords), node)
        func = node.func
        if not (isinstance(func, ast.Name) and func.id in PURE_BUILTINS and not node.keywords):
            return checked
        same = ast.Compare(left=ast.Name(id=func.id, ctx=ast.Load()), ops=[ast.Is()],
                           comparators=[ast.Constant(_MARK + func.id)])
        return ast.copy_location(ast.IfExp(test=same, body=node, orelse=checked), node)


def _bind(code):
    """``code`` with its placeholder constants replaced by the guard and the builtins."""
    consts = tuple(_bind(c) if isinstance(c, types.CodeType)
                   else _BOUND.get(c, c) if type(c) is str else c for c in code.co_consts)
    return code.replace(co_consts=consts)


def compile_tree(tree, filename, mode="eval"):
    """Compile a tree made of checked expressions, their guards bound."""
    with warnings.catch_warnings():   # "'str' object is not callable": it is, once bound
        warnings.simplefilter("ignore", SyntaxWarning)
        return _bind(compile(tree, filename, mode, dont_inherit=True))


def _name(func):
    return getattr(func, "__qualname__", None) or getattr(func, "__name__", None) \
        or type(func).__name__


def guard(func, *args, **kwargs):
    """Call ``func`` when it is a pure builtin or a read-only builtin method, else refuse."""
    pure = _PURE.get(id(func))
    if pure is func:
        if kwargs and (id(func) not in _TAKES_KEY or set(kwargs) - {"key", "default", "reverse"}):
            raise Refused(f"{_name(func)}() with these keywords is not allowed in an expression")
        key = kwargs.get("key")
        if key is not None and _PURE.get(id(key)) is not key:
            raise Refused(f"{_name(func)}(key=…) takes only a pure builtin in an expression")
        return func(*args, **kwargs)
    if type(func) is types.BuiltinMethodType:
        owner = getattr(func, "__self__", None)
        allowed = READ_ONLY_METHODS.get(type(owner))
        if allowed is not None and func.__name__ in allowed:
            return func(*args, **kwargs)
    raise Refused(f"calling {_name(func)} is not allowed in an expression "
                  "(only pure builtins and read-only methods)")


_BOUND = {_MARK + "guard": guard,
          **{_MARK + name: getattr(builtins, name) for name in PURE_BUILTINS}}


class Compiled:
    """A checked expression: its text and its guarded ``tree`` (question_code.py compiles it
    into the functions that evaluate it)."""

    __slots__ = ("text", "tree")

    def __init__(self, text, tree):
        self.text = text
        self.tree = tree


def compile_expression(text, filename="<expression>"):
    """A Compiled expression; raises SyntaxError or Refused with a message for the reader."""
    if not isinstance(text, str) or not text.strip():
        raise Refused("an expression must be non-empty text")
    tree = ast.parse(text.strip(), filename, mode="eval")
    _check(tree)
    tree = ast.fix_missing_locations(_Guarded().visit(tree))
    compile_tree(tree, filename)   # what parsing lets through and compiling does not
    return Compiled(text, tree)


def error_text(exc):
    """One line for the reader: ``NameError: name 'x' is not defined``."""
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg}"
    if isinstance(exc, Refused):
        return f"not evaluated: {exc}"
    try:
        message = str(exc)
    except Exception:
        message = ""
    name = type(exc).__name__
    return f"{name}: {message}" if message else name


def template_parts(template):
    """A logpoint template split into literal texts and expression texts:
    ``"n={len(x)}!"`` → ``["n=", ("len(x)",), "!"]``; ``{{`` and ``}}`` are braces."""
    if not isinstance(template, str):
        raise Refused("a log message must be text")
    parts, text, i = [], [], 0
    while i < len(template):
        ch = template[i]
        if ch in "{}" and template[i + 1:i + 2] == ch:
            text.append(ch)
            i += 2
            continue
        if ch == "}":
            raise Refused("a single '}' in a log message: write '}}'")
        if ch != "{":
            text.append(ch)
            i += 1
            continue
        depth, j = 1, i + 1
        while j < len(template) and depth:
            depth += {"{": 1, "}": -1}.get(template[j], 0)
            j += 1
        if depth:
            raise Refused("a '{' without its '}' in a log message")
        if text:
            parts.append("".join(text))
            text = []
        parts.append((template[i + 1:j - 1],))
        i = j
    if text:
        parts.append("".join(text))
    return parts
