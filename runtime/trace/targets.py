"""Which code objects a block shows and traces, and the statements it steps."""

import sys
import types

from ..catalog.shown import WHOLE, statement_nodes
from .statements import statement_ranges

_INLINED = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>"})


def _nested_codes(code):
    found, todo = [], [code]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return found


def targets(module_code, parts):
    """The displayed code objects (one per part: a function's or a method's, or the
    module's own for the whole file) and the traced codes (them and every code nested in
    them). A part's code is the one of its name (a method's: ``claim`` of ``Board.claim``)
    that starts at its first decorator or its ``def``."""
    shown = []
    for part in parts:
        if part.name == WHOLE:
            shown.append(module_code)
            continue
        name = part.name.rpartition(".")[2]
        for code in _nested_codes(module_code):
            if code.co_name == name and part.code_line <= code.co_firstlineno <= part.first \
                    and code is not module_code:
                shown.append(code)
                break
        else:
            raise LookupError(f"function {part.name} not found in compiled module")
    inline = sys.version_info < (3, 12)
    traced = [c for main in shown for c in _nested_codes(main)
              if not (inline and c.co_name in _INLINED)]
    return shown, traced


def ranges(tree, parts):
    """``{line: (first, last)}`` of every statement the block steps (absolute lines)."""
    found = {}
    for node in statement_nodes(tree, parts):
        for line, span in statement_ranges(node).items():
            found.setdefault(line, span)
    return found
