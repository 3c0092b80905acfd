"""What a block displays: its parts (functions and methods, or the whole file) and rows.

A block names a top-level function (``f``) or a method of a top-level class, its classes
as the name nests them (``Board.claim``, ``Outer.Inner.method``). A ``symbol`` block
shows one function, numbered from 1 at its ``def`` line; one method, numbered with the
file's lines. A ``symbols`` block shows the named functions and methods of its source in
file order, or with ``["*"]`` the whole file, numbered with the file's own lines; the
lines between two shown parts are one elided gap row unless they are all blank (then
they are shown). Every shown line is the file's, indentation and all. See
docs/authoring.md, "Blocks of several functions" and "Blocks of methods".
"""

import ast
import builtins
import symtable
from dataclasses import dataclass

WHOLE = "*"
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True)
class Part:
    """One displayed function or method (``name``: ``f``, ``Board.claim``) or the whole
    file (``name`` "*")."""
    name: str
    first: int       # first displayed file line: the ``def`` line, 1 for the file
    last: int        # last file line
    code_line: int   # first line of its code object (its first decorator, if any)


def file_line_count(text):
    """The number of lines of a file's text (a final newline ends the last line)."""
    lines = text.split("\n")
    return len(lines) - 1 if len(lines) > 1 and lines[-1] == "" else len(lines)


def parts(tree, text, names):
    """The parts for ``names`` in file order; ValueError with the reason when one names
    no function or method of ``tree`` (find_def), is named twice, or "*" is not alone."""
    if not isinstance(names, list) or not names \
            or not all(isinstance(n, str) and n for n in names):
        raise ValueError("symbols must be a non-empty list of function names, or [\"*\"]")
    if WHOLE in names:
        if names != [WHOLE]:
            raise ValueError('"*" (the whole file) must be the only entry of symbols')
        return (Part(WHOLE, 1, file_line_count(text), 1),)
    if len(set(names)) != len(names):
        raise ValueError(f"symbols names a function twice: {names}")
    found = []
    for name in names:
        node = find_def(tree, name)
        first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        found.append(Part(name, node.lineno, node.end_lineno, first))
    return tuple(sorted(found, key=lambda part: part.first))


def rows(text, shown, first_line):
    """The displayed rows: ``(number, text)`` per line, ``None`` for an elided gap;
    ``number`` is the file line minus ``first_line`` plus 1."""
    lines = text.split("\n")
    out = []
    previous = None
    for part in shown:
        if previous is not None and part.first > previous + 1:
            between = range(previous + 1, part.first)
            if all(not lines[k - 1].strip() for k in between):
                out += [(k - first_line + 1, lines[k - 1]) for k in between]
            else:
                out.append(None)
        out += [(k - first_line + 1, lines[k - 1]) for k in range(part.first, part.last + 1)]
        previous = part.last
    return tuple(out)


def statement_nodes(tree, shown):
    """The AST nodes whose statements the block steps: each shown function, or every
    statement of the module for the whole file."""
    if shown and shown[0].name == WHOLE:
        return list(tree.body)
    return [find_def(tree, part.name) for part in shown]


def is_method(name):
    """Whether a block's name names a method (``Board.claim``), not a top-level function."""
    return "." in name


def _first(body, name):
    """The first function or class statement of ``body`` named ``name``, or None."""
    return next((node for node in body
                 if isinstance(node, (*_DEFS, ast.ClassDef)) and node.name == name), None)


def _names(body, kinds):
    """The names of ``body``'s statements of ``kinds``, in order, each once."""
    return list(dict.fromkeys(node.name for node in body if isinstance(node, kinds)))


def _listed(names):
    return ", ".join(names) or "none"


def find_def(tree, name):
    """The ``def`` node ``name`` names in a module tree: a top-level function (``f``) or a
    method of a top-level class, through the classes the name nests (``Board.claim``,
    ``Outer.Inner.method``); of several defs of one name (a property's getter and setter)
    the first. ValueError naming what there is when nothing fits."""
    *classes, last = name.split(".")
    body, owner = tree.body, None
    for part in classes:
        node = _first(body, part)
        if not isinstance(node, ast.ClassDef):
            where = f"in class {owner!r}" if owner else "at the top level"
            found = f"{part!r} {where} is a function, not a class" if node is not None \
                else f"no class {part!r} {where}"
            raise ValueError(f"{found} (classes there: {_listed(_names(body, ast.ClassDef))})")
        body, owner = node.body, part if owner is None else f"{owner}.{part}"
    node = _first(body, last)
    if isinstance(node, _DEFS):
        return node
    if isinstance(node, ast.ClassDef):
        methods = [f"{name}.{method}" for method in _names(node.body, _DEFS)]
        raise ValueError(f"{name!r} is a class, not a function: name one of its methods "
                         f"({', '.join(methods) or 'it has none'})")
    if owner is None:
        classes = _names(body, ast.ClassDef)
        also = f"; classes: {', '.join(classes)}, a method named as Class.method" \
            if classes else ""
        raise ValueError(f"no top-level function {last!r} (it has: "
                         f"{_listed(_names(body, _DEFS))}{also})")
    raise ValueError(f"no method {last!r} in class {owner!r} (it has: "
                     f"{_listed(_names(body, _DEFS))})")


def hidden_calls(tree, shown, first_line):
    """``{line: [name, …]}``: the functions called by name on each displayed line (numbered
    as the block numbers them) that the block does not show (a setup's ``ask``, another
    module's ``run_loop``): Step into runs them as one step. Builtins are left out."""
    nodes = statement_nodes(tree, shown)
    defined = {part.name for part in shown}
    defined |= {node.name for top in nodes for node in ast.walk(top)
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    found = {}
    for top in nodes:
        for node in ast.walk(top):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                name = node.func.id
                if name in defined or hasattr(builtins, name):
                    continue
                names = found.setdefault(node.lineno - first_line + 1, [])
                if name not in names:
                    names.append(name)
    return dict(sorted(found.items()))


@dataclass(frozen=True)
class Names:
    """What a block's page needs of its source beyond its rows."""
    hidden_calls: dict          # hidden_calls: {line: [name, …]}
    own_names: list | None      # a whole-file block's module_names, else None


def names(block, text):
    """The Names of ``block`` (runtime/catalog/lessons.py's Block), ``text`` its source's."""
    tree = ast.parse(text, block.source)
    whole = [part.name for part in block.parts] == [WHOLE]
    return Names(hidden_calls(tree, block.parts, block.first_line),
                 module_names(text, block.source) if whole else None)


def module_names(text, filename):
    """The global names a module's own code binds, in order of first mention: what it
    assigns, imports, defines at its top level, and what its functions declare ``global``
    and assign. A whole-file block shows these among its module frame's locals; the rest
    there are the setup's (docs/design.md, "How a block runs")."""
    top = symtable.symtable(text, filename, "exec")
    names = [s.get_name() for s in top.get_symbols()
             if s.is_assigned() or s.is_imported() or s.is_namespace()]
    work = list(top.get_children())
    while work:
        table = work.pop()
        work += table.get_children()
        if table.get_type() == "class":
            continue
        names += [s.get_name() for s in table.get_symbols()
                  if s.is_declared_global() and s.is_assigned() and s.get_name() not in names]
    return names
