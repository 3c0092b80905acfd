"""The oracle: a plain ``sys.settrace`` run of a lesson block (see tests/test_oracle.py).

Runs the block's programs as docs/design.md "How a block runs" says (setup, modules,
entry in one namespace, stdout and stderr captured, empty stdin) under a settrace
hook that watches the frames of the displayed functions (a ``symbols`` block: each of
them; ``["*"]``: the module's own code) and of the code nested in them (on 3.11, not
the list/dict/set comprehension frames, which 3.12+ inlines into the function). At
every event of those frames it snapshots the frame's ``f_locals`` (without the names
``runtime.names`` says the interpreter adds: in a module frame, also its ``__x__``
globals), each value through the recorder's value encoder, and the length of the
output so far.

Shares nothing with the recorder but the lesson catalog, the value encoder and the
hidden-name rule; runs unchanged in CPython and inside Pyodide.
"""

import builtins
import dis
import io
import sys
import types

try:
    from loopstep.runtime.catalog.lessons import load_lesson
    from loopstep.runtime.trace.names import hidden, hidden_in_module
    from loopstep.runtime.trace.values import encode
except ModuleNotFoundError:   # in the page's Python the recorder's package is `runtime`
    from runtime.catalog.lessons import load_lesson
    from runtime.trace.names import hidden, hidden_in_module
    from runtime.trace.values import encode

_INLINED = ("<listcomp>", "<dictcomp>", "<setcomp>")
_RETURNS = {"RETURN_VALUE", "RETURN_CONST"}


def _left_by_exception(frame, previous):
    """Whether settrace's "return" event leaves ``frame`` by an exception. Returns stand
    at RETURN_VALUE/RETURN_CONST; yields at YIELD_VALUE or (3.13) the instruction after
    it, where an exception thrown in by throw()/close() leaves too, right after its
    "exception" event (``previous``: the frame's previous event)."""
    ops = list(dis.get_instructions(frame.f_code))
    at = next((k for k, ins in enumerate(ops) if ins.offset == frame.f_lasti), None)
    if at is None:
        return True   # inside a call's inline cache (3.12): the call raised
    if ops[at].opname in _RETURNS:
        return False
    if ops[at].opname == "YIELD_VALUE" or (at and ops[at - 1].opname == "YIELD_VALUE"):
        return previous == "exception"
    return True


def _nested(code):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _nested(const)


def displayed_codes(module, block):
    """The displayed functions' code objects (or the module's) and every code object
    nested in them."""
    found = set()
    for part in block.parts:
        main = module if part.name == "*" else next(
            c for c in _nested(module)
            if c.co_name == part.name and part.code_line <= c.co_firstlineno <= part.first)
        found |= {main, *(c for c in _nested(main)
                          if not (sys.version_info < (3, 12) and c.co_name in _INLINED))}
    return found


def _message(exc):
    try:
        return str(exc)
    except BaseException:
        return f"<{type(exc).__qualname__}>"


def _exited(exc, output):
    """sys.exit(): CPython prints a non-integer exit code to stderr, nothing else."""
    if exc.code is not None and not isinstance(exc.code, int):
        print(exc.code, file=output)


def observe(lesson_id, symbol, scenario, roots):
    """{"events": [EVENT, …], "stdout", "error"}: EVENT = {"frame", "event", "line",
    "locals": [[name, VALUE], …], "out": characters printed so far, "ret"?, "exc"?}.
    "event" is call/line/return/exception, or "unwind" for a settrace "return" that
    leaves the frame by an exception. Lines are numbered as the block shows them
    (from the def line of a ``symbol`` block; file lines in a ``symbols`` block)."""
    lesson = load_lesson(lesson_id, roots)
    block = lesson.block(symbol)
    programs = lesson.programs(symbol, scenario)
    codes = [compile(p.text, p.path, "exec", dont_inherit=True) for p in programs]
    targets = displayed_codes(codes[1 + lesson.modules.index(block.source)], block)
    output = io.StringIO()
    events = []
    ids = {}
    previous = {}   # frame → its previous event

    def snapshot(frame, event, arg):
        ident = ids.setdefault(frame, len(ids) + 1)
        leave = hidden_in_module if frame.f_code.co_name == "<module>" else hidden
        # a module frame starts at line 0 (before its first line): its code's first line
        line = frame.f_lineno or frame.f_code.co_firstlineno
        entry = {"frame": ident, "event": event, "line": line - block.first_line + 1,
                 "locals": [[name, encode(value)] for name, value in frame.f_locals.items()
                            if not leave(name)],
                 "out": len(output.getvalue())}
        if event == "return":
            entry["ret"] = encode(arg)
        elif event == "exception":
            entry["exc"] = {"type": type(arg[1]).__name__, "message": _message(arg[1])}
        events.append(entry)

    def local(frame, event, arg):
        if event == "return" and _left_by_exception(frame, previous.get(frame)):
            event = "unwind"
        previous[frame] = event
        snapshot(frame, event, arg)
        return local

    def calls(frame, event, arg):
        if frame.f_code in targets:
            previous[frame] = "call"
            snapshot(frame, "call", arg)
            return local
        return None

    namespace = {"__name__": "__main__", "__builtins__": builtins}
    saved = sys.stdout, sys.stderr, sys.stdin, sys.gettrace()
    sys.stdout = sys.stderr = output
    sys.stdin = io.StringIO("")
    error = None
    try:
        sys.settrace(calls)
        for code in codes:
            exec(code, namespace)
    except SystemExit as exc:
        _exited(exc, output)
    except Exception as exc:
        error = {"type": type(exc).__name__, "message": _message(exc)}
    finally:
        sys.settrace(saved[3])
        sys.stdout, sys.stderr, sys.stdin = saved[:3]
    return {"events": events, "stdout": output.getvalue(), "error": error}


def plain_run(lesson_id, symbol, scenario, roots):
    """What the block's programs print run plainly (no tracing) in this interpreter,
    stdout and stderr together, an uncaught error's traceback as Python prints it."""
    import linecache
    import traceback

    lesson = load_lesson(lesson_id, roots)
    programs = lesson.programs(symbol, scenario)
    for p in programs:
        linecache.cache[p.path] = (len(p.text), None, p.text.splitlines(True), p.path)
    output = io.StringIO()
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout = sys.stderr = output
    sys.stdin = io.StringIO("")
    try:
        for p in programs:
            exec(compile(p.text, p.path, "exec", dont_inherit=True), namespace)
    except SystemExit as exc:
        _exited(exc, output)
    except Exception as exc:
        # the traceback from the programs' own frames on (this function's frame left out)
        output.write("".join(traceback.format_exception(
            exc.with_traceback(exc.__traceback__.tb_next))))
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved
    return output.getvalue()
