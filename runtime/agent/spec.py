"""The ``[agent]`` table of ``lesson.toml``: which callables are model calls and tool calls.

    [agent]
    model = ["ask"]                       # callables whose calls are model calls
    tools = ["execute_hooked"]            # callables (or handler tables) that run tools
    gate = "check_permission"             # the permission gate: each call is a decision

Each entry is a dotted name looked up in the lesson's namespace after the setup and
the modules ran (``client.messages.create``); a name whose value is a dict is a
handler table: each value is a tool named by its key. ``gate`` names one function whose
every call is a permission decision: its return value ``"allow"``, ``"deny"`` or
``"ask"`` (``True``/``False``: allow/deny), for the tool named by the tool_use block among
its arguments (else its first text argument, else the tool call running). The lesson's code is not
changed: the recorder observes calls of these functions' code objects. See
docs/authoring.md, "Agent boundary".
"""

import ast
from dataclasses import dataclass

KEYS = ("model", "tools")


@dataclass(frozen=True)
class AgentSpec:
    model: tuple        # dotted names
    tools: tuple
    gate: str | None = None   # dotted name of the permission gate


def _is_dotted(name):
    return isinstance(name, str) and bool(name) and all(
        part.isidentifier() for part in name.split("."))


def _store_names(target, into):
    for node in ast.walk(target):
        if isinstance(node, ast.Name):
            into.add(node.id)


def top_level_names(tree):
    """Names a module binds outside its functions and classes."""
    names = set()
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
            continue
        if isinstance(node, ast.Assign):
            for target in node.targets:
                _store_names(target, names)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
            _store_names(node.target, names)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    _store_names(item.optional_vars, names)
        for field in ("body", "orelse", "finalbody", "handlers"):
            todo.extend(getattr(node, field, ()) or ())
        if isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


def parse(raw, where, texts, error):
    """The AgentSpec of a ``[agent]`` table (None when absent), whose shape (arrays of
    text under ``model`` and ``tools``, no other key) runtime/catalog/schema.py checked.

    ``texts``: {path: text} of the setup and the modules, whose top-level names a
    declared name must start with. ``error(where, reason)`` builds the exception.
    """
    if raw is None:
        return None
    here = f"{where} [agent]"
    bound = {"scenario"}
    for path, text in texts.items():
        try:
            bound |= top_level_names(ast.parse(text, filename=path))
        except SyntaxError as failure:
            raise error(path, f"syntax error on line {failure.lineno}: {failure.msg} "
                              f"(read for {here})") from None
    lists = {}
    for key in KEYS:
        names = raw.get(key, [])
        for name in names:
            if not _is_dotted(name):
                raise error(here, f"{key}: {name!r} is not a dotted Python name")
            if name.split(".")[0] not in bound:
                raise error(here, f"{key}: {name!r} is not defined at the top level of "
                                  "the setup or the modules")
        lists[key] = tuple(names)
    gate = raw.get("gate")
    if gate is not None:
        if not _is_dotted(gate):
            raise error(here, f"gate: {gate!r} is not a dotted Python name")
        if gate.split(".")[0] not in bound:
            raise error(here, f"gate: {gate!r} is not defined at the top level of "
                              "the setup or the modules")
    both = set(lists["model"]) & set(lists["tools"])
    if both:
        raise error(here, f"{sorted(both)[0]!r} is both a model call and a tool")
    if not lists["model"] and not lists["tools"]:
        raise error(here, "names no model call and no tool")
    return AgentSpec(lists["model"], lists["tools"], gate)
