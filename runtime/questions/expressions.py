"""Reader expressions (watches, breakpoint conditions, logpoint parts) made safe to
evaluate inside the recorded program without changing it.

An expression is parsed and checked before it runs: only names, attributes,
subscripts, literals, operators, f-strings and comprehensions are allowed, and a
name starting with ``__`` or an attribute starting with ``_``, assignment expressions and lambdas are
refused. The checked tree is then rewritten (``_Guarded``) so that every operation
that could run the program's code or consume its state goes, as it runs, through a
check of readonly.py (iteration, ``in``, operators, comparisons, truth tests,
subscripts, attribute reads, formatting, hashing) or through ``calls.guard`` (every
call): these decide by the exact type of the values and refuse (``Refused``, shown as
``not evaluated: …``) what could change the run, e.g. ``list(it)`` of a program's
iterator. A part of the expression made only of names, constants, operators and
pure builtin calls is evaluated as written when, at run time, its names hold exact
builtin scalars and its builtins are the real ones (``_fast``): the common
``i % 1000 == 999`` costs a type test per name. A checked expression stores no name
in the frame: questions.py evaluates it in a function of its own (question_code.py) that
reads the frame's locals from the recorder's copy of them, and redirects the
program's output while evaluating, so a refused or failing expression leaves the run
exactly as it was.
"""

import ast
import builtins
import copy
import operator
import types
import warnings

from . import readonly
from .calls import PURE_BUILTINS, READ_ONLY_METHODS, guard  # noqa: F401 (the module's API)
from .readonly import Refused

_MARK = "\x00loopstep:"   # placeholder constants, bound to objects after compiling

_ALLOWED = (ast.Expression, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.IfExp, ast.Dict,
            ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
            ast.comprehension, ast.Compare, ast.Call, ast.keyword, ast.FormattedValue,
            ast.JoinedStr, ast.Constant, ast.Attribute, ast.Subscript, ast.Starred,
            ast.Name, ast.List, ast.Tuple, ast.Slice, ast.expr_context, ast.boolop,
            ast.operator, ast.unaryop, ast.cmpop)


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


_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
              ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv,
              ast.Mod: operator.mod, ast.Pow: operator.pow, ast.LShift: operator.lshift,
              ast.RShift: operator.rshift, ast.BitOr: operator.or_,
              ast.BitXor: operator.xor, ast.BitAnd: operator.and_,
              ast.MatMult: operator.matmul, ast.USub: operator.neg, ast.UAdd: operator.pos,
              ast.Invert: operator.invert, ast.Eq: operator.eq, ast.NotEq: operator.ne,
              ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
              ast.GtE: operator.ge}
_SCALAR_NODES = (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.JoinedStr,
                 ast.FormattedValue, ast.Name, ast.Constant, ast.Call, ast.operator,
                 ast.unaryop, ast.boolop, ast.cmpop, ast.expr_context)


def _c(name):
    return ast.Constant(_MARK + name)


def _call(name, *args):
    return ast.Call(func=_c(name), args=list(args), keywords=[])


def _truth(node, text):
    """``node`` whose truth is tested: checked (readonly.truth) where it may not be a
    builtin value."""
    if getattr(node, "loopstep_fast", False):
        node.orelse = _call("truth", node.orelse, ast.Constant(text))
        return node
    return _call("truth", node, ast.Constant(text))


def _scalar_parts(node):
    """({name read as a value: "scalars", or "plain" when only ``len`` reads it}, builtin
    names called) when ``node`` is made only of names, scalar constants, operators and
    calls of pure builtins by name; else None."""
    names, funcs = set(), set()
    for inner in ast.walk(node):
        if not isinstance(inner, _SCALAR_NODES):
            return None
        if isinstance(inner, ast.Constant) and not readonly.plain(inner.value):
            return None
        if isinstance(inner, ast.Call):
            if not (isinstance(inner.func, ast.Name) and inner.func.id in PURE_BUILTINS) \
                    or inner.keywords or any(isinstance(a, ast.Starred) for a in inner.args):
                return None
            funcs.add(inner.func.id)
        elif isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
            return None
    calls = {id(inner.func) for inner in ast.walk(node) if isinstance(inner, ast.Call)}
    measured = {id(inner.args[0]) for inner in ast.walk(node) if isinstance(inner, ast.Call)
                and inner.func.id == "len" and len(inner.args) == 1}
    read = [inner for inner in ast.walk(node)
            if isinstance(inner, ast.Name) and id(inner) not in calls]
    names = {inner.id: "scalars" for inner in read if id(inner) not in measured}
    for inner in read:   # a name only measured by len may hold any builtin value
        names.setdefault(inner.id, "plain")
    return names, funcs


class _Guarded(ast.NodeTransformer):
    """Every operation of a checked tree through its check (module docstring)."""

    def __init__(self):
        self.skip = None

    def visit(self, node):
        if isinstance(node, ast.expr) and node is not self.skip \
                and not isinstance(node, (ast.Name, ast.Constant)):
            parts = _scalar_parts(node)
            if parts is not None:
                return self._fast(node, *parts)
        return super().visit(node)

    def _fast(self, node, names, funcs):
        """``node`` as written when its names hold scalars and its builtins are the real
        ones, else ``node`` checked."""
        tests = [ast.Compare(left=ast.Name(id=f, ctx=ast.Load()), ops=[ast.Is()],
                             comparators=[_c(f)]) for f in sorted(funcs)]
        tests += [ast.Compare(left=_call("type", ast.Name(id=n, ctx=ast.Load())),
                              ops=[ast.In()], comparators=[_c(names[n])])
                  for n in sorted(names)]
        if not tests:
            return node
        checked = copy.deepcopy(node)
        self.skip = checked
        checked = self.visit(checked)
        test = tests[0] if len(tests) == 1 else ast.BoolOp(op=ast.And(), values=tests)
        fast = ast.IfExp(test=test, body=copy.deepcopy(node), orelse=checked)
        fast.loopstep_fast = True   # a truth test needs a check on the checked side only
        return fast

    def visit_Call(self, node):
        texts = tuple(ast.unparse(a.value if isinstance(a, ast.Starred) else a)
                      for a in node.args)
        self.generic_visit(node)
        args = [ast.Starred(value=_call("iterable", a.value, ast.Constant(texts[k])),
                            ctx=ast.Load()) if isinstance(a, ast.Starred) else a
                for k, a in enumerate(node.args)]
        keywords = [k if k.arg is not None else
                    ast.keyword(arg=None, value=_call("mapping", k.value,
                                                      ast.Constant(ast.unparse(k.value))))
                    for k in node.keywords]
        return _call("guard", node.func, ast.Constant(texts), *args) if not keywords else \
            ast.Call(func=_c("guard"), args=[node.func, ast.Constant(texts), *args],
                     keywords=keywords)

    def visit_Attribute(self, node):
        text = ast.unparse(node)
        self.generic_visit(node)
        return _call("attribute", node.value, ast.Constant(node.attr), ast.Constant(text))

    def visit_Subscript(self, node):
        text = ast.unparse(node)
        self.generic_visit(node)
        return _call("item", ast.Constant(text), node.value, node.slice)

    def visit_Slice(self, node):
        self.generic_visit(node)
        return _call("slice", *(part or ast.Constant(None)
                                for part in (node.lower, node.upper, node.step)))

    def visit_BinOp(self, node):
        text = ast.unparse(node)
        self.generic_visit(node)
        return _call("binop", _c(type(node.op).__name__), ast.Constant(text), node.left,
                     node.right)

    def visit_UnaryOp(self, node):
        text = ast.unparse(node.operand)
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            node.operand = _truth(node.operand, text)
            return node
        return _call("unary", _c(type(node.op).__name__), ast.Constant(ast.unparse(node)),
                     node.operand)

    def visit_BoolOp(self, node):
        texts = [ast.unparse(v) for v in node.values]
        self.generic_visit(node)
        node.values = [_truth(v, t) if k < len(texts) - 1 else v
                       for k, (v, t) in enumerate(zip(node.values, texts))]
        return node

    def visit_IfExp(self, node):
        text = ast.unparse(node.test)
        self.generic_visit(node)
        node.test = _truth(node.test, text)
        return node

    def visit_Compare(self, node):
        text = ast.unparse(node)
        right_text = ast.unparse(node.comparators[0])
        self.generic_visit(node)
        if len(node.ops) > 1:
            rest = []
            for op, right in zip(node.ops, node.comparators):
                thunk = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[],
                                                      kw_defaults=[], defaults=[]), body=right)
                rest += [ast.Constant(type(op).__name__), thunk]
            return _call("chain", ast.Constant(text), node.left, *rest)
        op, right = node.ops[0], node.comparators[0]
        if isinstance(op, (ast.Is, ast.IsNot)):
            return node
        if isinstance(op, (ast.In, ast.NotIn)):
            found = _call("contains", ast.Constant(text), node.left, right,
                          ast.Constant(right_text))
            return found if isinstance(op, ast.In) else \
                ast.UnaryOp(op=ast.Not(), operand=found)
        return _call("compare", _c(type(op).__name__), ast.Constant(text), node.left, right)

    def visit_comprehension(self, node):
        text = ast.unparse(node.iter)
        conditions = [ast.unparse(c) for c in node.ifs]
        self.generic_visit(node)
        node.iter = _call("iterable", node.iter, ast.Constant(text))
        if not isinstance(node.target, ast.Name):
            node.iter = _call("unpacked", node.iter, ast.Constant(text))
        node.ifs = [_truth(c, t) for c, t in zip(node.ifs, conditions)]
        return node

    def visit_GeneratorExp(self, node):
        self.generic_visit(node)
        return _call("made", node)

    def visit_SetComp(self, node):
        text = ast.unparse(node.elt)
        self.generic_visit(node)
        node.elt = _call("hashable", node.elt, ast.Constant(text))
        return node

    def visit_DictComp(self, node):
        text = ast.unparse(node.key)
        self.generic_visit(node)
        node.key = _call("hashable", node.key, ast.Constant(text))
        return node

    def visit_Set(self, node):
        texts = [ast.unparse(e.value if isinstance(e, ast.Starred) else e) for e in node.elts]
        self.generic_visit(node)
        node.elts = [ast.Starred(value=_call("plain_items", e.value, ast.Constant(t),
                                             ast.Constant("hashing")), ctx=ast.Load())
                     if isinstance(e, ast.Starred) else _call("hashable", e, ast.Constant(t))
                     for e, t in zip(node.elts, texts)]
        return node

    def visit_Dict(self, node):
        texts = [ast.unparse(k if k is not None else v) for k, v in zip(node.keys, node.values)]
        self.generic_visit(node)
        for k, (key, text) in enumerate(zip(node.keys, texts)):
            if key is None:
                node.values[k] = _call("mapping", node.values[k], ast.Constant(text))
            else:
                node.keys[k] = _call("hashable", key, ast.Constant(text))
        return node

    def _starred(self, node):
        texts = [ast.unparse(e.value) if isinstance(e, ast.Starred) else None for e in node.elts]
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load):
            node.elts = [ast.Starred(value=_call("iterable", e.value, ast.Constant(t)),
                                     ctx=ast.Load()) if t is not None else e
                         for e, t in zip(node.elts, texts)]
        return node

    visit_List = visit_Tuple = _starred

    def visit_FormattedValue(self, node):
        text = ast.unparse(node.value)
        self.generic_visit(node)
        node.value = _call("shown", node.value, ast.Constant(text), ast.Constant("formatting"))
        return node


def _bind(code):
    """``code`` with its placeholder constants replaced by the checks and the builtins."""
    consts = tuple(_bind(c) if isinstance(c, types.CodeType)
                   else _BOUND.get(c, c) if type(c) is str else c for c in code.co_consts)
    return code.replace(co_consts=consts)


def compile_tree(tree, filename, mode="eval"):
    """Compile a tree made of checked expressions, their checks bound."""
    with warnings.catch_warnings():   # "'str' object is not callable": it is, once bound
        warnings.simplefilter("ignore", SyntaxWarning)
        return _bind(compile(tree, filename, mode, dont_inherit=True))


_BOUND = {_MARK + "guard": guard, _MARK + "slice": slice, _MARK + "type": type,
          _MARK + "scalars": readonly.SCALARS, _MARK + "plain": readonly.PLAIN,
          **{_MARK + name: getattr(readonly, name)
             for name in ("attribute", "item", "binop", "unary", "truth", "compare", "chain",
                          "contains", "iterable", "unpacked", "made", "hashable", "mapping",
                          "plain_items", "shown")},
          **{_MARK + op.__name__: fn for op, fn in _OPERATORS.items()},
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
    with warnings.catch_warnings():   # e.g. "invalid decimal literal": never the run's stderr
        warnings.simplefilter("ignore", SyntaxWarning)
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
