"""The run's standard input: ``[standins] input`` answers, then end of input.

``input()`` reads a line from ``sys.stdin``: each answer in order, echoed to the output
as a terminal shows what was typed, then end of input (``EOFError``, as at the end of
a terminal's input), so an ``if __name__ == "__main__":`` REPL ends. Without answers the
input is empty from the start. The real terminal is never read.
"""

import io


class Answers(io.TextIOBase):
    def __init__(self, answers, output):
        self.answers = list(answers)
        self.output = output

    def readable(self):
        return True

    def readline(self, size=-1):
        if not self.answers:
            return ""
        line = self.answers.pop(0).rstrip("\n") + "\n"
        self.output.write(line)
        return line

    def read(self, size=-1):
        text = "".join(a.rstrip("\n") + "\n" for a in self.answers)
        self.answers.clear()
        self.output.write(text)
        return text


def stdin(answers, output):
    """The stdin of one run: the answers (echoed to ``output``) or nothing."""
    if not answers:
        return io.StringIO("")
    return Answers(answers, output)
