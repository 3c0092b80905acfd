"""Map each source line of a function to the statement it belongs to.

A simple statement covers all its lines; a compound statement (``if``, ``for``,
``def``, ...) covers only its header, from its first line to the last line of
the expressions in the header. Lines in a function body nested in the given
function (closures) are mapped too, so one map serves every traced frame.
"""

import ast

_BODY_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_HEADER_SKIP = _BODY_FIELDS + ("decorator_list", "type_comment")


def _last_line(node):
    """The last line of the expressions in a compound statement's header."""
    last = node.lineno
    for name, field in ast.iter_fields(node):
        if name in _HEADER_SKIP:
            continue
        values = field if isinstance(field, list) else [field]
        for value in values:
            if isinstance(value, ast.AST):
                for inner in ast.walk(value):
                    end = getattr(inner, "end_lineno", None)
                    if end is not None and end > last:
                        last = end
    return last


def _is_compound(node):
    return any(isinstance(getattr(node, name, None), list) and getattr(node, name)
               and isinstance(getattr(node, name)[0], (ast.stmt, ast.excepthandler,
                                                       ast.match_case))
               for name in _BODY_FIELDS)


def statement_ranges(function):
    """``{line: (first, last)}`` (absolute lines) for a FunctionDef node and all it holds."""
    ranges = {}
    todo = [function]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.match_case):
            first = node.pattern.lineno
            last = max(node.pattern.end_lineno,
                       node.guard.end_lineno if node.guard is not None else first)
        elif isinstance(node, (ast.stmt, ast.excepthandler)):
            first = node.lineno
            last = _last_line(node) if _is_compound(node) else node.end_lineno
        else:
            continue
        for line in range(first, last + 1):
            ranges.setdefault(line, (first, last))
        for name in _BODY_FIELDS:
            children = getattr(node, name, None)
            if isinstance(children, list):
                todo.extend(reversed(children))
    return ranges
