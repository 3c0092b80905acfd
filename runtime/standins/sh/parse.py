"""Command lines into lists of pipelines: the part of bash's grammar agents use.

A line is a list of pipelines joined by ``&&``, ``||``, ``;`` or newlines; a pipeline
is commands joined by ``|`` (``!`` before it negates its status); a command is
assignments (``NAME=value``), words and redirections (``<``, ``>``, ``>>``, ``&>``,
``N>``, ``N>>``, ``N>&M``, ``<<<``, here-documents ``<<`` and ``<<-``), or a compound
command: ``( … )``, ``{ …; }``, ``if``/``elif``/``else``, ``for NAME in …``, ``while``
and ``until``, ``case … esac`` (each may be followed by redirections), or a function
definition (``NAME() BODY``, ``function NAME BODY``). Words are kept as written
(quotes, ``$…``, backquotes, globs): expand.py turns them into fields when the command
runs. ``&``, ``;&``, arrays and ``select`` raise Unsupported.
"""

import re

from .lex import Heredoc, Unsupported, tokens

KEYWORDS = {"if", "for", "while", "until", "{", "case", "function", "select", "then", "else",
            "elif", "fi", "do", "done", "esac", "}"}
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*=")
__all__ = ["Command", "Compound", "Heredoc", "Unsupported", "parse", "tokens"]


class Command:
    def __init__(self):
        self.assigns, self.words, self.redirects = [], [], []   # redirect: (operator, word)

    def __repr__(self):
        return f"Command({self.assigns!r}, {self.words!r}, {self.redirects!r})"


class Compound:
    """``kind``: "subshell", "group" (``body``), "arith" (``expression``, of ``(( … ))``),
    "if" (``branches`` [(test, body)],
    ``other``), "for" (``name``, ``items`` words or None, ``body``), "while"/"until"
    (``test``, ``body``), "case" (``subject``, ``arms`` [(patterns, body)]), "function"
    (``name``, ``body``); bodies and tests are lists as parse() returns them."""

    def __init__(self, kind, **parts):
        self.kind, self.redirects = kind, []
        self.__dict__.update(parts)


def parse(line):
    """The list of a command line: [(operator before or None, negated, [command, …])],
    each command a Command or a Compound."""
    parser = _Parser(tokens(line))
    found = parser.list(())
    if parser.index < len(parser.items):
        raise Unsupported(f"syntax error near unexpected token `{parser.items[parser.index][1]}'")
    return found


class _Parser:
    def __init__(self, items):
        self.items, self.index = items, 0

    def peek(self):
        return self.items[self.index] if self.index < len(self.items) else (None, None)

    def word_is(self, *words):
        kind, text = self.peek()
        return kind == "word" and text in words

    def expect(self, word):
        if not self.word_is(word):
            found = self.peek()[1]
            raise Unsupported(f"syntax error near unexpected token `{found or 'newline'}'"
                              if found else "syntax error: unexpected end of file")
        self.index += 1

    def separators(self, semicolon=False):
        """Skip newlines (and one ``;`` before them when ``semicolon``)."""
        if semicolon and self.peek() == ("op", ";"):
            self.index += 1
        while self.peek() == ("op", "\n"):
            self.index += 1

    def list(self, ends):
        """Pipelines up to one of the words ``ends`` (or ``)``, or the end)."""
        chain, before = [], None
        self.separators()
        while self.index < len(self.items) and not self.word_is(*ends) and \
                self.peek() not in (("op", ")"), ("op", ";;")):
            negated = False
            while self.word_is("!"):
                negated = not negated
                self.index += 1
            chain.append((before, negated, self.pipeline()))
            kind, text = self.peek()
            if kind != "op" or text in (")", ";;"):
                break
            if text == "(":
                raise Unsupported("syntax error near unexpected token `('")
            if text in ("&", "|&"):
                raise Unsupported(text)
            self.index += 1
            before = ";" if text == "\n" else text
            if text in ("&&", "||"):
                while self.peek() == ("op", "\n"):
                    self.index += 1
                if self.index >= len(self.items):
                    raise Unsupported("syntax error: unexpected end of file")
            else:
                self.separators()
                before = ";"
        return chain

    def pipeline(self):
        commands = [self.command()]
        while self.peek() == ("op", "|"):
            self.index += 1
            while self.peek() == ("op", "\n"):
                self.index += 1
            commands.append(self.command())
        return commands

    def command(self):
        kind, text = self.peek()
        if (kind, text) == ("op", "("):
            self.index += 1
            body = self.list(())
            if self.peek() != ("op", ")"):
                raise Unsupported("syntax error: unexpected end of file")
            self.index += 1
            return self.redirected(Compound("subshell", body=body))
        if kind == "word" and text in KEYWORDS:
            return self.redirected(self.compound(text))
        if kind == "arith":
            self.index += 1
            return self.redirected(Compound("arith", expression=text))
        if kind == "word" and self.items[self.index + 1:self.index + 3] == [("op", "("), ("op", ")")] \
                and re.fullmatch(r"[A-Za-z_][\w.:-]*", text):
            self.index += 3
            return self.function(text)
        command = Command()
        while True:
            kind, text = self.peek()
            if kind == "redir":
                self.index += 1
                target = self.peek()
                if target == ("op", "(") and text in ("<", ">"):
                    raise Unsupported(f"{text}(…)")   # process substitution
                if target[0] not in ("word", "doc"):
                    raise Unsupported(f"syntax error near unexpected token `{text}'")
                if text.lstrip("0123456789") in ("<>", "<&"):
                    raise Unsupported(text)
                command.redirects.append((text, target[1]))
                self.index += 1
            elif kind == "word":
                self.index += 1
                if not command.words and _ASSIGNMENT.match(text):
                    command.assigns.append(text)
                else:
                    command.words.append(text)
            else:
                break
        if not (command.words or command.assigns or command.redirects):
            found = text.strip() if text else ""
            raise Unsupported(f"syntax error near unexpected token `{found or 'newline'}'"
                              if text else "syntax error: unexpected end of file")
        return command

    def redirected(self, compound):
        while self.peek()[0] == "redir":
            operator = self.peek()[1]
            self.index += 1
            compound.redirects.append((operator, self.peek()[1]))
            self.index += 1
        return compound

    def compound(self, word):
        self.index += 1
        if word == "{":
            body = self.list(("}",))
            self.expect("}")
            return Compound("group", body=body)
        if word == "if":
            branches, other = [], None
            while True:
                test = self.list(("then",))
                self.expect("then")
                branches.append((test, self.list(("elif", "else", "fi"))))
                if self.word_is("elif"):
                    self.index += 1
                    continue
                if self.word_is("else"):
                    self.index += 1
                    other = self.list(("fi",))
                self.expect("fi")
                return Compound("if", branches=branches, other=other)
        if word in ("while", "until"):
            test = self.list(("do",))
            self.expect("do")
            body = self.list(("done",))
            self.expect("done")
            return Compound(word, test=test, body=body)
        if word == "for":
            name = self.peek()[1]
            self.index += 1
            items = None
            self.separators()
            if self.word_is("in"):
                self.index += 1
                items = []
                while self.peek()[0] == "word":
                    items.append(self.peek()[1])
                    self.index += 1
            self.separators(semicolon=True)
            self.expect("do")
            body = self.list(("done",))
            self.expect("done")
            return Compound("for", name=name, items=items, body=body)
        if word == "case":
            return self.case()
        if word == "function":
            name = self.peek()[1]
            self.index += 1
            if self.items[self.index:self.index + 2] == [("op", "("), ("op", ")")]:
                self.index += 2
            return self.function(name)
        raise Unsupported(word)

    def function(self, name):
        """A function's body (a compound command), after ``NAME()`` or ``function NAME``."""
        self.separators()
        kind, text = self.peek()
        if not ((kind, text) == ("op", "(") or (kind == "word" and text in KEYWORDS)):
            raise Unsupported(f"syntax error near unexpected token `{text or 'newline'}'"
                              if text else "syntax error: unexpected end of file")
        return Compound("function", name=name, body=[(None, False, [self.command()])])

    def case(self):
        """``case WORD in [(]PATTERN[|PATTERN]…) LIST ;; … esac``."""
        subject = self.peek()[1]
        self.index += 1
        self.separators()
        self.expect("in")
        self.separators()
        arms = []
        while not self.word_is("esac"):
            if self.peek() == ("op", "("):
                self.index += 1
            patterns = []
            while True:
                kind, text = self.peek()
                if kind != "word":
                    raise Unsupported(f"syntax error near unexpected token `{text or 'newline'}'"
                                      if text else "syntax error: unexpected end of file")
                patterns.append(text)
                self.index += 1
                if self.peek() != ("op", "|"):
                    break
                self.index += 1
            if self.peek() != ("op", ")"):
                found = self.peek()[1]
                raise Unsupported(f"syntax error near unexpected token `{found}'"
                                  if found else "syntax error: unexpected end of file")
            self.index += 1
            arms.append((patterns, self.list(("esac",))))
            if self.peek() == ("op", ";;"):
                self.index += 1
                self.separators()
            elif not self.word_is("esac"):
                raise Unsupported("syntax error: unexpected end of file")
        self.index += 1
        return Compound("case", subject=subject, arms=arms)
