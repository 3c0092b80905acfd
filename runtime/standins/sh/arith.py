"""``$((…))``: bash's integer arithmetic (``+ - * / % **``, comparisons, ``&& || !``,
parentheses, variables by name or ``$NAME``), evaluated on a Python ``ast`` of the
expression, never with ``eval``. Division truncates toward zero, as in C."""

import ast
import re

_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
        ast.Mult: lambda a, b: a * b, ast.Pow: lambda a, b: _power(a, b),
        ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b,
        ast.BitXor: lambda a, b: a ^ b, ast.LShift: lambda a, b: a << b,
        ast.RShift: lambda a, b: a >> b}
_COMPARE = {ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
            ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
            ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b}


class ArithmeticError_(Exception):
    pass


def _wrap(value):
    """A value as bash's signed 64-bit integers hold it."""
    return (value + 2 ** 63) % 2 ** 64 - 2 ** 63


def _power(base, exponent):
    if exponent < 0:
        raise ArithmeticError_("exponent less than 0")
    return pow(base, exponent, 2 ** 64)


_NAME = r"\s*([A-Za-z_][A-Za-z_0-9]*)\s*"


def evaluate(text, state):
    """The value of an expression; assignments (``=``, ``+=`` …, ``++``, ``--``) at its
    top (or in comma-separated parts) set the variables."""
    value = 0
    for part in text.split(","):
        value = _assignment(part, state)
    return value


def _assignment(text, state):
    found = re.fullmatch(_NAME + r"(\+\+|--)\s*", text) or \
        re.fullmatch(r"\s*(\+\+|--)" + _NAME, text)
    if found:
        post = found.group(1)[0].isalpha() or found.group(1)[0] == "_"
        name, operator = found.groups() if post else found.groups()[::-1]
        old = _value(ast.Name(id=name), state)
        new = _wrap(old + (1 if operator == "++" else -1))
        state.vars[name] = str(new)
        return old if post else new
    found = re.fullmatch(_NAME + r"([-+*/%]?)=(?!=)(.*)", text, re.DOTALL)
    if found:
        name, operator, rest = found.groups()
        value = _expression(rest, state)
        if operator:
            value = _expression(f"{name} {operator} ({value})", state)
        state.vars[name] = str(value)
        return value
    return _expression(text, state)


def _expression(text, state):
    source = re.sub(r"\$\{?([A-Za-z_][A-Za-z_0-9]*)\}?", r"\1", text).strip() or "0"
    source = re.sub(r"\b(\d+)#([0-9A-Za-z]+)", lambda m: str(int(m[2], int(m[1]))), source)
    source = re.sub(r"\b0([0-7]+)\b", lambda m: str(int(m[1], 8)), source)
    source = source.replace("&&", " and ").replace("||", " or ")
    source = re.sub(r"!(?!=)", " not ", source)
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        raise ArithmeticError_(f"{text.strip()}: syntax error in expression") from None
    return _value(tree.body, state)


def _value(node, state):
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Name):
        raw = state.vars.get(node.id, "0") or "0"
        return int(raw) if raw.lstrip("-").isdigit() else 0
    if isinstance(node, ast.UnaryOp):
        value = _value(node.operand, state)
        if isinstance(node.op, ast.Not):
            return int(not value)
        return {ast.USub: -value, ast.UAdd: value, ast.Invert: ~value}[type(node.op)]
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left, state), _value(node.right, state)
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)):
            if right == 0:
                raise ArithmeticError_("division by 0")
            quotient = abs(left) // abs(right) * (1 if (left >= 0) == (right >= 0) else -1)
            return left - quotient * right if isinstance(node.op, ast.Mod) else quotient
        if type(node.op) in _OPS:
            if isinstance(node.op, (ast.LShift, ast.RShift)):
                right &= 63
            return _wrap(_OPS[type(node.op)](left, right))
    if isinstance(node, ast.BoolOp):
        values = [_value(v, state) for v in node.values]
        return int(all(values) if isinstance(node.op, ast.And) else any(values))
    if isinstance(node, ast.Compare):
        left = _value(node.left, state)
        for op, right_node in zip(node.ops, node.comparators):
            right = _value(right_node, state)
            if type(op) not in _COMPARE or not _COMPARE[type(op)](left, right):
                return 0
            left = right
        return 1
    if isinstance(node, ast.IfExp):
        return _value(node.body if _value(node.test, state) else node.orelse, state)
    raise ArithmeticError_("syntax error in expression")


def expr(shell, args, cwd, stdin):
    """``expr A OP B`` (integers: ``+ - * / %``, comparisons), ``expr length S``, ``expr S``;
    exit status 1 when the result is 0 or empty."""
    if len(args) == 2 and args[0] == "length":
        value = str(len(args[1]))
    elif len(args) == 1:
        value = args[0]
    elif len(args) == 3 and args[1] in ("+", "-", "*", "/", "%", "<", "<=", ">", ">=", "=",
                                        "!=", "=="):
        left, operator, right = args
        numbers = all(re.fullmatch(r"-?\d+", v) for v in (left, right))
        if operator in "+-*/%" and not numbers:
            return 2, "", "expr: non-integer argument\n"
        if operator in ("/", "%") and int(right) == 0:
            return 2, "", "expr: division by zero\n"
        if numbers:
            left, right = int(left), int(right)
        if operator in "/%":
            quotient = abs(left) // abs(right) * (1 if (left >= 0) == (right >= 0) else -1)
            value = quotient if operator == "/" else left - quotient * right
        else:
            value = {"+": lambda: left + right, "-": lambda: left - right,
                     "*": lambda: left * right, "<": lambda: int(left < right),
                     "<=": lambda: int(left <= right), ">": lambda: int(left > right),
                     ">=": lambda: int(left >= right), "=": lambda: int(left == right),
                     "==": lambda: int(left == right), "!=": lambda: int(left != right)}[
                operator]()
        value = str(value)
    else:
        return 2, "", ("expr: missing operand\nTry 'expr --help' for more information.\n"
                       if not args else "expr: syntax error: unexpected argument\n")
    return int(value in ("0", "", "-0")), value + "\n", ""
