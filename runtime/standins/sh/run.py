"""Running a parsed line (parse.py): the and-or list, pipelines (each command's
stdout is the next one's stdin), redirections, assignments and the builtins that
change the shell itself (``cd``, ``export``, ``unset``, ``exit``, ``:``).

Errors of the shell itself are written as ``bash -c`` writes them
(``bash: line 1: cd: x: No such file or directory``).
"""

import fnmatch
import os
import re

from . import arith, builtins, expand
from .builtins import ExitLine, Jump, LoopControl
from .parse import Command, Heredoc, Unsupported, parse

DEVNULL = "/dev/null"
ROUNDS = 10_000   # a while or until loop stops after so many rounds (never a hung run)


class Input(str):
    """The stdin of a compound command, shared by its commands: ``read`` takes its lines
    one by one (``rest``: what is left)."""


def shared(stdin):
    if isinstance(stdin, Input):
        return stdin
    found = Input(stdin)
    found.rest = str(stdin)
    return found


class Run:
    """One command line's shell: its variables, status, directory and stderr."""

    def __init__(self, shell, cwd, variables=None):
        self.shell, self.cwd = shell, cwd
        self.vars = dict(variables or {})
        self.vars.setdefault("PWD", cwd)
        self.status, self.args, self.err, self.loops = 0, [], [], 0
        self.errexit, self.testing = False, 0   # set -e; inside an if's or a loop's test
        self.pipefail = self.nounset = False       # set -o pipefail; set -u
        self.functions, self.frames = {}, []       # NAME → body; the calls' local names
        self.exported, self.prefixed = set(self.vars), set()
        self.on_exit = None                         # trap … EXIT

    def child(self):
        """A copy of this shell for ``( … )`` and ``$( … )``."""
        inner = Run(self.shell, self.cwd, self.vars)
        inner.status, inner.args, inner.zero = self.status, self.args, getattr(self, "zero", "bash")
        inner.errexit, inner.pipefail, inner.nounset = self.errexit, self.pipefail, self.nounset
        inner.functions, inner.exported = dict(self.functions), set(self.exported)
        return inner

    # -- the whole line --------------------------------------------------------------
    def line(self, line, stdin=""):
        """(code, stdout, stderr) of a command line."""
        try:
            chain = parse(line)
        except Unsupported as error:
            return 2, "", _syntax_message(str(error), line)
        code, out, err = self.line_of(chain, stdin)
        if self.on_exit is not None:
            trap, self.on_exit = self.on_exit, None
            status, self.err = code, []
            _, more, err_more = self.line(trap)
            return status, out + more, err + err_more
        return code, out, err

    def list(self, chain, stdin):
        """The stdout of a parsed list; self.status its status."""
        out = []
        try:
            for index, (before, negated, pipeline) in enumerate(chain):
                if (before == "&&" and self.status != 0) or (before == "||" and self.status == 0):
                    continue
                code, data = self.pipeline(pipeline, stdin)
                self.status = int(not code) if negated else code
                out.append(data)
                after = chain[index + 1][0] if index + 1 < len(chain) else None
                if self.errexit and code and not (negated or self.testing or
                                                  "&&" in (before, after) or
                                                  "||" in (before, after)):
                    raise ExitLine(code)
        except Jump as done:
            done.out = "".join(out) + done.out
            raise
        return "".join(out)

    def substitute(self, line):
        """The stdout of ``$(line)``, trailing newlines removed; run in a copy of the shell."""
        inner = self.child()
        code, out, err = inner.line(line)
        self.err.append(err)
        self.status = code
        return out.rstrip("\n")

    def pipeline(self, commands, stdin):
        data, code, failed = stdin, 0, 0
        for command in commands:
            if isinstance(command, Command):
                code, data = self.command(command, data)
            else:
                code, data = self.compound(command, data)
            failed = code or failed
        return (failed if self.pipefail else code), data

    # -- compound commands ---------------------------------------------------------------
    def compound(self, node, stdin):
        """(code, stdout) of ( … ), { … }, if, for, while or until, with its redirections."""
        try:
            targets, stdin = self._redirects(node.redirects, stdin)
        except _Failed as failed:
            self.err.append(failed.message)
            return 1, ""
        saved, self.err = self.err, []
        stdin = shared(stdin)
        try:
            if node.kind == "arith":
                out, code = "", int(arith.evaluate(node.expression, self) == 0)
            elif node.kind == "subshell":
                code, out, err = self.child().line_of(node.body, stdin)
                self.err.append(err)
            else:
                out = self._body(node, stdin)
                code = self.status
        except Jump:
            saved.append("".join(self.err))
            self.err = saved
            raise
        err, self.err = "".join(self.err), saved
        return self._route(targets, code, out, err)

    def line_of(self, chain, stdin):
        try:
            out = self.list(chain, stdin)
        except ExitLine as done:
            self.status, out = done.code, done.out
            self.err.append(getattr(done, "message", ""))
        except arith.ArithmeticError_ as error:
            self.err.append(f"bash: line 1: {error}\n")
            self.status, out = 1, ""
        except (ValueError, IndexError, KeyError, re.error) as error:   # a word we misread
            self.err.append(f"bash: line 1: {error}\n")
            self.status, out = 1, ""
        except RecursionError:
            self.err.append("bash: line 1: maximum nesting level exceeded\n")
            self.status, out = 1, ""
        return self.status, out, "".join(self.err)

    def _body(self, node, stdin):
        out = []
        if node.kind == "group":
            return self.list(node.body, stdin)
        if node.kind == "function":
            self.functions[node.name] = node.body
            self.status = 0
            return ""
        if node.kind == "case":
            subject = expand.one(node.subject, self)
            self.status = 0
            for patterns, body in node.arms:
                if any(fnmatch.fnmatchcase(subject, expand.pattern(p, self)) for p in patterns):
                    return self.list(body, stdin)
            return ""
        if node.kind == "if":
            for test, body in node.branches:
                out.append(self._test(test, stdin))
                if self.status == 0:
                    out.append(self.list(body, stdin))
                    return "".join(out)
            self.status = 0
            if node.other is not None:
                out.append(self.list(node.other, stdin))
            return "".join(out)
        if node.kind == "for":
            items = self.args if node.items is None else \
                [f for word in node.items for f in expand.fields(word, self)]
            self.status = 0
            for item in items:
                self.vars[node.name] = item
                if not self._round(node.body, stdin, out):
                    break
            return "".join(out)
        status, rounds = 0, 0
        while True:
            out.append(self._test(node.test, stdin))
            if (self.status == 0) != (node.kind == "while"):
                break
            going = self._round(node.body, stdin, out)
            status, rounds = self.status, rounds + 1
            if not going:
                break
            if rounds >= ROUNDS:
                self.err.append(f"sh: loop stopped after {ROUNDS} rounds\n")
                break
        self.status = status
        return "".join(out)

    # -- one command -------------------------------------------------------------------
    def command(self, command, stdin):
        """(code, stdout) of one command; its stderr goes to self.err or its redirections."""
        try:
            if command.words[:1] == ["[["]:   # its words are neither split nor globbed
                argv = [expand.one(word, self) for word in command.words]
            else:
                argv = [f for word in command.words for f in expand.fields(word, self)]
            targets, stdin = self._redirects(command.redirects, stdin)
        except _Failed as failed:
            self.err.append(failed.message)
            return 1, ""
        except arith.ArithmeticError_ as error:
            self.err.append(f"bash: line 1: {error}\n")
            return 1, ""
        saved, prefixed = dict(self.vars), self.prefixed
        if argv:
            self.prefixed = {a.partition("=")[0] for a in command.assigns}
        for assignment in command.assigns:
            name, _, value = assignment.partition("=")
            self.vars[name] = expand.one(value, self)
        if not argv:
            return self._route(targets, 0, "", "")
        try:
            code, out, err = self.builtin(argv, stdin)
        finally:
            self.prefixed = prefixed
            if command.assigns:   # NAME=value before a command is for that command only
                kept = {k: v for k, v in self.vars.items() if k not in dict(
                    a.partition("=")[::2] for a in command.assigns)}
                self.vars = {**saved, **kept}
        return self._route(targets, code, out, err)

    def builtin(self, argv, stdin):
        found = builtins.builtin(self, argv, stdin)
        if found is not None:
            return found
        self.shell.environ = self.environment()
        return self.shell.run_argv(argv, self.cwd, stdin)

    def environment(self):
        """The exported variables (and this command's ``NAME=value``), as children see them."""
        return {k: v for k, v in self.vars.items() if k in self.exported or k in self.prefixed}

    def _test(self, chain, stdin):
        """The stdout of an if's or a loop's test (``set -e`` does not end the line there)."""
        self.testing += 1
        try:
            return self.list(chain, stdin)
        finally:
            self.testing -= 1

    def _round(self, body, stdin, out):
        """Run a loop's body once; False after ``break``."""
        self.loops += 1
        try:
            out.append(self.list(body, stdin))
        except LoopControl as jump:
            out.append(jump.out)
            return jump.code == 0
        finally:
            self.loops -= 1
        return True

    # -- redirections ------------------------------------------------------------------
    def _redirects(self, redirects, stdin):
        """({fd: target}, stdin): a target is "out", "err", None (/dev/null) or a path."""
        targets = {1: "out", 2: "err"}
        for operator, word in redirects:
            fd_text = operator.rstrip("<>&|")
            kind = operator[len(fd_text):]
            if kind == "<<<":
                stdin = expand.one(word, self) + "\n"
                continue
            if kind == "<<" and isinstance(word, Heredoc):
                stdin = word.body if word.quoted else expand.document(word.body, self)
                continue
            name = expand.one(word, self)
            if kind == "<":
                stdin = self._read(name)
                continue
            fd = int(fd_text) if fd_text else 1
            if kind == ">&":
                if name.isdigit():
                    targets[fd] = targets.get(int(name), "out")
                    continue
                fds, kind = (1, 2), ">"
            else:
                fds = (1, 2) if kind.startswith("&") else (fd,)
            target = self._open(name, append=kind.endswith(">>"))
            for each in fds:
                targets[each] = target
        return targets, stdin

    def _read(self, name):
        full = self.shell.path(name, self.cwd)
        if name == DEVNULL:
            return ""
        if full is None or not os.path.exists(full):
            raise _Failed(f"bash: line 1: {name}: No such file or directory\n")
        if os.path.isdir(full):
            raise _Failed(f"bash: line 1: {name}: Is a directory\n")
        with open(full, encoding="utf-8", errors="replace", newline="") as handle:
            return handle.read()

    def _open(self, name, append):
        if name == DEVNULL:
            return None
        full = self.shell.path(name, self.cwd)
        if full is None or not os.path.isdir(os.path.dirname(full)):
            raise _Failed(f"bash: line 1: {name}: No such file or directory\n")
        if os.path.isdir(full):
            raise _Failed(f"bash: line 1: {name}: Is a directory\n")
        with open(full, "a" if append else "w", encoding="utf-8", newline=""):
            pass
        return full

    def _route(self, targets, code, out, err):
        data = []
        for fd, text in ((1, out), (2, err)):
            target = targets.get(fd)
            if not text or target is None:
                continue
            if target == "out":
                data.append(text)
            elif target == "err":
                self.err.append(text)
            else:
                with open(target, "a", encoding="utf-8", newline="") as handle:
                    handle.write(text)
        return code, "".join(data)


class _Failed(Exception):
    def __init__(self, message):
        self.message = message


def _syntax_message(message, line):
    """stderr for a line that does not parse: bash's words for a syntax error, else
    ``sh: unsupported syntax: …`` for what the stand-in shell lacks."""
    last = line.count("\n") + 1
    if message.startswith("syntax error near"):
        return f"bash: -c: line 1: {message}\nbash: -c: line 1: `{line}'\n"
    if message.startswith("syntax error"):
        return f"bash: -c: line {last + 1}: {message}\n"
    if message.startswith("unexpected EOF"):
        return f"bash: -c: line {last + (')' in message)}: {message}\n"
    return f"sh: unsupported syntax: {message}\n"
