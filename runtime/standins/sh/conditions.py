"""Conditions: ``test``/``[`` (POSIX) and bash's ``[[ … ]]`` (``&&``, ``||``, ``!``,
parentheses, ``==``/``!=`` with glob patterns, ``=~`` extended regular expressions,
``<``/``>``), on the run's folder."""

import fnmatch
import os
import re

from . import regex
from .options import Usage


def test(shell, args, cwd, stdin, bracket=False):
    if bracket:
        if not args or args[-1] != "]":
            return 2, "", "bash: line 1: [: missing `]'\n"
        args = args[:-1]
    try:
        return int(not _test(shell, list(args), cwd)), "", ""
    except Usage as usage:
        name = "[" if bracket else "test"
        return 2, "", f"bash: line 1: {name}: {usage.message}\n"


def bracket(shell, args, cwd, stdin):
    return test(shell, args, cwd, stdin, bracket=True)


def _test(shell, args, cwd):
    if not args:
        return False
    if args[0] == "!":
        return not _test(shell, args[1:], cwd)
    for joiner in ("-o", "-a"):
        if joiner in args[1:-1]:
            at = args.index(joiner, 1)
            left, right = _test(shell, args[:at], cwd), _test(shell, args[at + 1:], cwd)
            return (left or right) if joiner == "-o" else (left and right)
    if len(args) == 1:
        return args[0] != ""
    if len(args) == 2:
        operator, name = args
        if operator == "-z":
            return name == ""
        if operator == "-n":
            return name != ""
        full = shell.path(name, cwd)
        checks = {"-e": os.path.exists, "-f": os.path.isfile, "-d": os.path.isdir,
                  "-s": lambda p: os.path.isfile(p) and os.path.getsize(p) > 0,
                  "-r": os.path.exists, "-w": os.path.exists, "-x": lambda p: os.access(p, 1),
                  "-L": os.path.islink, "-h": os.path.islink}
        if operator not in checks:
            raise Usage(2, f"{operator}: unary operator expected")
        return full is not None and checks[operator](full)
    if len(args) == 3:
        left, operator, right = args
        if operator in ("=", "=="):
            return left == right
        if operator == "!=":
            return left != right
        numeric = {"-eq": int.__eq__, "-ne": int.__ne__, "-lt": int.__lt__, "-le": int.__le__,
                   "-gt": int.__gt__, "-ge": int.__ge__}
        if operator in numeric:
            for value in (left, right):
                if not re.fullmatch(r"\s*-?\d+\s*", value):
                    raise Usage(2, f"{value}: integer expression expected")
            return numeric[operator](int(left), int(right))
        raise Usage(2, f"{operator}: binary operator expected")
    raise Usage(2, "too many arguments")



def double_bracket(shell, args, cwd, stdin):
    """``[[ … ]]``: its words (not split, not globbed) up to ``]]``."""
    if not args or args[-1] != "]]":
        return 2, "", "bash: line 1: unexpected EOF while looking for `]]'\n"
    words, position = args[:-1], [0]

    def peek():
        return words[position[0]] if position[0] < len(words) else None

    def either():
        value = both()
        while peek() == "||":
            position[0] += 1
            value = both() or value
        return value

    def both():
        value = single()
        while peek() == "&&":
            position[0] += 1
            value = single() and value
        return value

    def single():
        word = peek()
        if word == "!":
            position[0] += 1
            return not single()
        if word == "(":
            position[0] += 1
            value = either()
            position[0] += 1
            return value
        end = position[0]
        while end < len(words) and words[end] not in ("&&", "||", ")"):
            end += 1
        part, position[0] = words[position[0]:end], end
        if len(part) == 3 and part[1] in ("==", "=", "!=", "=~", "<", ">"):
            left, operator, right = part
            if operator == "=~":
                return re.search(regex.translate(right, True), left) is not None
            if operator in ("<", ">"):
                return left < right if operator == "<" else left > right
            return fnmatch.fnmatchcase(left, right) == (operator != "!=")
        return _test(shell, part, cwd)

    try:
        return int(not either()), "", ""
    except Usage as usage:
        return 2, "", f"bash: line 1: {usage.message}\n"
