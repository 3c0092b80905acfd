"""The custom scenario: a block run with the reader's own setup text.

Only the setup program changes: it is the reader's text, compiled under the lesson's
setup path (so its line numbers are the lines of the text as the reader edited it);
the modules, the displayed function and the call entry are the lesson's own. An
error of the setup — a syntax error, or an exception raised on one of its lines —
is reported as the trace's ``setup_error`` {type, message, line}.
"""

import traceback

from .lessons import CUSTOM, Program
from ..trace.values import presented

MAX_SETUP_CHARS = 100_000


def programs(spec, block, scenario, setup):
    """The programs of ``block`` under ``scenario``; ``setup`` is the text of "custom"."""
    if scenario != CUSTOM:
        if setup is not None:
            raise ValueError(f"a setup text runs only under scenario {CUSTOM!r}")
        return spec.programs(block, scenario)
    if not isinstance(setup, str):
        raise ValueError(f"scenario {CUSTOM!r} needs the setup text")
    if len(setup) > MAX_SETUP_CHARS:
        raise ValueError(f"the setup text is longer than {MAX_SETUP_CHARS} characters")
    found = spec.programs(block, spec.block(block).presets[0])
    return [Program(spec.setup, setup), *found[1:]]


def compile_all(programs):
    """Compile each program under its own path; SyntaxError of any propagates."""
    return [compile(p.text, p.path, "exec", dont_inherit=True) for p in programs]


def syntax_error(exc, setup_path):
    """The setup error of a SyntaxError raised compiling the setup; None for other files."""
    if exc.filename != setup_path:
        return None
    return {"type": type(exc).__name__, "message": exc.msg, "line": exc.lineno}


def syntax_error_text(exc):
    """The SyntaxError as Python prints it, without a traceback."""
    return "".join(traceback.format_exception_only(type(exc), exc))


def runtime_error(exc, setup_path, program_files, folder=None):
    """The setup error of an exception that escaped the program when the innermost
    program frame it passed through was running a line of the setup; else None
    (``folder``: the run's values.Folder)."""
    innermost = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename in program_files:
            innermost = frame.f_code.co_filename, lineno
    if innermost is None or innermost[0] != setup_path:
        return None
    return {"type": type(exc).__name__, "message": presented(str(exc), folder),
            "line": innermost[1]}
