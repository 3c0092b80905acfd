"""A run's captured stdout/stderr, and the traceback of what escaped it."""

import io
import traceback

from .values import presented


class Output(io.TextIOBase):
    """Captured stdout/stderr; ``units`` is its length in UTF-16 code units. While
    ``muted`` (a question is being evaluated, questions.py) what is written is dropped.
    With a ``cap``, at most that many characters are kept: a write that passes it keeps
    what fits and calls ``on_cap`` (the recorder's: it stops the run)."""

    def __init__(self, folder=None, cap=None):
        self.parts = []
        self.units = 0
        self.chars = 0
        self.muted = False
        self.folder = folder   # values.Folder: the run's folder as the trace shows it
        self.cap = cap
        self.on_cap = None

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self.muted:
            return len(text)
        shown = presented(text, self.folder)
        cap = self.cap
        passed = cap is not None and self.chars + len(shown) > cap
        if passed:
            shown = shown[:cap - self.chars]
        self.parts.append(shown)
        self.chars += len(shown)
        self.units += len(shown) + sum(1 for ch in shown if ord(ch) > 0xFFFF)
        if passed and self.on_cap is not None:
            self.on_cap()
        return len(text)

    def getvalue(self):
        return "".join(self.parts)


def traceback_text(exc, program_files):
    """The traceback as the program's own: frames of the recorder and of the standard
    library that it ran inside are left out."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename in program_files]
    lines = ["Traceback (most recent call last):\n"]
    lines += traceback.StackSummary.from_list(frames).format()
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(lines)
