"""Evaluating awk expressions (awk.py's machine, awk_parse.py's tuples)."""

import math
import random
import re

from . import regex
from .awk_parse import AwkError


def _strnum():
    from .awk import StrNum
    return StrNum


def evaluate(machine, node):
    from .awk import _looks_numeric, format_, number, text
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "str":
        return node[1]
    if kind == "regex":
        return node[1]
    if kind == "group":
        return evaluate(machine, node[1][-1])
    if kind == "var":
        return machine.vars.get(node[1], "")
    if kind == "field":
        return machine.field(evaluate(machine, node[1]))
    if kind == "index":
        return machine.arrays.setdefault(node[1], {}).setdefault(machine.key(node[2]), "")
    if kind == "assign":
        return _assign(machine, node)
    if kind == "post":
        old = number(evaluate(machine, node[2]))
        _store(machine, node[2], old + (1 if node[1] == "++" else -1))
        return old
    if kind == "cond":
        return evaluate(machine, node[2] if machine.truth(evaluate(machine, node[1]))
                        else node[3])
    if kind == "not":
        return float(not machine.truth(evaluate(machine, node[1])))
    if kind == "concat":
        return text(evaluate(machine, node[1])) + text(evaluate(machine, node[2]))
    if kind == "in":
        return float(text(evaluate(machine, node[1])) in machine.arrays.get(node[2], {}))
    if kind == "match":
        pattern = _pattern(machine, node[2])
        return float(bool(re.search(regex.translate(pattern, True),
                                    text(evaluate(machine, node[1])))))
    if kind == "binary":
        operator = node[1]
        if operator == "&&":
            return float(machine.truth(evaluate(machine, node[2])) and
                         machine.truth(evaluate(machine, node[3])))
        if operator == "||":
            return float(machine.truth(evaluate(machine, node[2])) or
                         machine.truth(evaluate(machine, node[3])))
        if operator in ("~", "!~"):
            found = evaluate(machine, ("match", node[2], node[3]))
            return found if operator == "~" else float(not found)
        left, right = evaluate(machine, node[2]), evaluate(machine, node[3])
        if operator in ("<", "<=", ">", ">=", "==", "!="):
            if _looks_numeric(left) and _looks_numeric(right):
                left, right = number(left), number(right)
            else:
                left, right = text(left), text(right)
            return float({"<": left < right, "<=": left <= right, ">": left > right,
                          ">=": left >= right, "==": left == right,
                          "!=": left != right}[operator])
        return _arithmetic(operator, number(left), number(right))
    if kind == "call":
        return _call(machine, node[1], node[2], format_, number, text)
    raise AwkError(f"cannot evaluate {kind}")


def _arithmetic(operator, left, right):
    if operator in ("/", "%") and right == 0:
        raise AwkError("division by zero" + (" in %" if operator == "%" else ""))
    return {"+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
            "/": lambda: left / right, "%": lambda: math.fmod(left, right),
            "^": lambda: left ** right}[operator]()


def _store(machine, target, value):
    if target[0] == "var":
        machine.vars[target[1]] = value
    elif target[0] == "index":
        machine.arrays.setdefault(target[1], {})[machine.key(target[2])] = value
    else:
        machine.set_field(evaluate(machine, target[1]), value)


def _assign(machine, node):
    from .awk import number
    operator, target, value = node[1], node[2], evaluate(machine, node[3])
    if operator != "=":
        value = _arithmetic(operator[0], number(evaluate(machine, target)), number(value))
    elif isinstance(value, str) and not isinstance(value, _strnum()):
        value = str(value)
    _store(machine, target, value)
    return value


def _pattern(machine, node):
    """The regular expression of a ``/re/`` argument (parsed as ``$0 ~ /re/``) or text."""
    if node[0] == "match" and node[2][0] == "regex" and node[1] == ("field", ("num", 0.0)):
        return node[2][1]
    if node[0] == "regex":
        return node[1]
    from .awk import text
    return text(evaluate(machine, node))


def _call(machine, name, args, format_, number, text):
    values = lambda: [evaluate(machine, a) for a in args]  # noqa: E731
    if name == "length":
        if args and args[0][0] == "var" and args[0][1] in machine.arrays:
            return float(len(machine.arrays[args[0][1]]))
        value = text(evaluate(machine, args[0]) if args else machine.fields[0])
        return float(len(value.encode("utf-8")))   # LC_ALL=C: a character is a byte
    if name == "substr":
        items = values()
        source = text(items[0])
        start = round(number(items[1]))
        length = round(number(items[2])) if len(items) > 2 else len(source) + 1
        end = start + length
        start = max(start, 1)
        return source[start - 1:max(end - 1, start - 1)]
    if name == "index":
        items = values()
        return float(text(items[0]).find(text(items[1])) + 1)
    if name in ("tolower", "toupper"):
        value = text(values()[0])
        return value.lower() if name == "tolower" else value.upper()
    if name == "sprintf":
        items = values()
        return format_(text(items[0]), items[1:])
    if name in ("int", "sqrt", "exp", "log", "sin", "cos"):
        value = number(values()[0])
        return float({"int": math.trunc, "sqrt": math.sqrt, "exp": math.exp, "log": math.log,
                      "sin": math.sin, "cos": math.cos}[name](value))
    if name == "atan2":
        items = values()
        return math.atan2(number(items[0]), number(items[1]))
    if name in ("close", "fflush"):
        values()
        return 0.0
    if name == "rand":
        return random.random()
    if name == "srand":
        random.seed(number(values()[0]) if args else None)
        return 0.0
    if name == "split":
        source = text(evaluate(machine, args[0]))
        separator = _pattern(machine, args[2]) if len(args) > 2 else text(machine.vars["FS"])
        if separator == " ":
            parts = source.split()
        elif len(separator) == 1:
            parts = source.split(separator) if source else []
        else:
            parts = re.split(regex.translate(separator, True), source) if source else []
        StrNum = _strnum()
        machine.arrays[args[1][1]] = {str(i): StrNum(p) for i, p in enumerate(parts, 1)}
        return float(len(parts))
    if name in ("sub", "gsub"):
        return _substitute(machine, name, args, text)
    if name == "match":
        source = text(evaluate(machine, args[0]))
        pattern = _pattern(machine, args[1])
        found = re.search(regex.translate(pattern, True), source)
        machine.vars["RSTART"] = float(found.start() + 1) if found else 0.0
        machine.vars["RLENGTH"] = float(len(found.group())) if found else -1.0
        return machine.vars["RSTART"]
    raise AwkError(f"function {name} never defined")


def _substitute(machine, name, args, text):
    pattern = _pattern(machine, args[0])
    replacement = text(evaluate(machine, args[1]))
    target = args[2] if len(args) > 2 else ("field", ("num", 0.0))
    source = text(evaluate(machine, target))
    compiled = re.compile(regex.translate(pattern, True))

    def replace(match):
        return re.sub(r"\\\\|\\&|&", lambda m: {"\\\\": "\\", "\\&": "&"}.get(
            m.group(), match.group()), replacement)

    result, count = compiled.subn(replace, source, count=0 if name == "gsub" else 1)
    if count:
        _store(machine, target, result)
    return float(count)
