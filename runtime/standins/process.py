"""The stand-in ``subprocess`` module: ``run``, ``check_output``, ``call``,
``check_call``, ``getoutput``, ``getstatusoutput``, ``CompletedProcess``,
``TimeoutExpired``, ``CalledProcessError`` with the real signatures, answered by the
stand-in shell (shell.py) and the setup's ``shell`` function. Never a real process.

``shell(command)`` gets the command line as text (a list of arguments joined with
``shlex.join``) and returns its stdout (exit code 0), a tuple ``(code, stdout)`` or
``(code, stdout, stderr)``, or a ``CompletedProcess``; it may raise ``TimeoutExpired``.
Output not captured goes to the run's output; ``stderr=STDOUT`` appends stderr to
stdout. ``timeout`` expires when the stand-in shell's ``sleep`` would outlast it (in a
run with threads after that much virtual time: world/timeouts.py). ``Popen`` is not
offered.
"""

import os
import shlex
import sys
import types

from ..world import schedule, timeouts
from .sdk import reply_function

NAME = "subprocess"
PIPE, STDOUT, DEVNULL = -1, -2, -3


class SubprocessError(Exception):
    pass


class CalledProcessError(SubprocessError):
    def __init__(self, returncode, cmd, output=None, stderr=None):
        self.returncode, self.cmd, self.output, self.stderr = returncode, cmd, output, stderr

    def __str__(self):
        return f"Command '{self.cmd}' returned non-zero exit status {self.returncode}."

    @property
    def stdout(self):
        return self.output


class TimeoutExpired(SubprocessError):
    def __init__(self, cmd, timeout, output=None, stderr=None):
        self.cmd, self.timeout, self.output, self.stderr = cmd, timeout, output, stderr

    def __str__(self):
        return f"Command '{self.cmd}' timed out after {self.timeout} seconds"

    @property
    def stdout(self):
        return self.output


class CompletedProcess:
    def __init__(self, args, returncode, stdout=None, stderr=None):
        self.args, self.returncode, self.stdout, self.stderr = args, returncode, stdout, stderr

    def __repr__(self):
        shown = [f"args={self.args!r}", f"returncode={self.returncode!r}"]
        if self.stdout is not None:
            shown.append(f"stdout={self.stdout!r}")
        if self.stderr is not None:
            shown.append(f"stderr={self.stderr!r}")
        return f"CompletedProcess({', '.join(shown)})"

    def check_returncode(self):
        if self.returncode:
            raise CalledProcessError(self.returncode, self.args, self.stdout, self.stderr)


for _cls in (SubprocessError, CalledProcessError, TimeoutExpired, CompletedProcess):
    _cls.__module__ = NAME


def _kept(code, out, err):
    """A command's result as the run gets it: kept on the world's tape, or the one a
    replay's calibration gives back (world/tape.py, recording/calibrate.py)."""
    scheduler = schedule.current()
    tape = getattr(getattr(scheduler, "clock", None), "tape", None)
    if tape is None:
        return code, out, err
    me = scheduler.me() if scheduler is not None else None
    background = me is not None and me.name != "MainThread"
    return tape.command_output(code, out, err, background)


class Processes:
    """The run's ``subprocess`` functions: commands run in ``root`` (the run's folder)."""

    def __init__(self, context, root):
        from .shell import Shell   # the shell's modules: only in runs that plant subprocess
        self.context = context
        self.shell = Shell(root)

    def _handler(self):
        name = self.context.shell
        return None if name is None else reply_function(self.context.namespace, name)

    def execute(self, args, shell, cwd, stdin):
        """(code, stdout, stderr) texts of one command (once the run has threads, it takes
        virtual time first: world/schedule.py)."""
        schedule.pause("tool")
        noted = getattr(self.context, "on_command", None)
        if noted is not None:   # the trace marks the tool running as the stand-in's
            noted()
        folder = self.shell.directory(cwd)
        if folder is None:
            raise FileNotFoundError(2, "No such file or directory", cwd)
        line = args if isinstance(args, str) else shlex.join(os.fspath(a) for a in args)
        handler = self._handler()
        if shell and isinstance(args, str):
            if handler is None or self.shell.known(line, folder):
                return self.shell.run_line(line, folder, stdin)
        else:
            argv = [args] if isinstance(args, str) else [os.fspath(a) for a in args]
            code, out, err = self.shell.run_argv(argv, folder, stdin)
            if code != self.shell.NOT_FOUND:
                return code, out, err
            if handler is None:
                raise FileNotFoundError(2, "No such file or directory", argv[0])
        return _answer(handler(line))

    def run(self, *popenargs, input=None, capture_output=False, timeout=None, check=False,
            **kwargs):
        if not popenargs and "args" in kwargs:
            popenargs = (kwargs.pop("args"),)
        args = popenargs[0]
        if capture_output:
            if kwargs.get("stdout") is not None or kwargs.get("stderr") is not None:
                raise ValueError("stdout and stderr arguments may not be used "
                                 "with capture_output.")
            kwargs["stdout"] = kwargs["stderr"] = PIPE
        text = bool(kwargs.get("text") or kwargs.get("universal_newlines")
                    or kwargs.get("encoding") or kwargs.get("errors"))
        if isinstance(input, bytes):
            input = input.decode("utf-8", errors="replace")
        try:
            with schedule.command(timeout):
                code, out, err = self.execute(args, kwargs.get("shell", False),
                                              kwargs.get("cwd"), input or "")
                code, out, err = _kept(code, out, err)
        except timeouts.TimedOut:
            raise TimeoutExpired(args, timeout) from None
        if kwargs.get("stderr") == STDOUT:
            out, err = out + err, ""
        stdout = self._route(out, kwargs.get("stdout"), text, sys.stdout)
        stderr = self._route(err, kwargs.get("stderr"), text, sys.stderr)
        if check and code:
            raise CalledProcessError(code, args, stdout, stderr)
        return CompletedProcess(args, code, stdout, stderr)

    @staticmethod
    def _route(data, where, text, stream):
        if where == PIPE:
            return data if text else data.encode("utf-8")
        if where is None or where == STDOUT:
            stream.write(data)
        return None

    def check_output(self, *popenargs, timeout=None, **kwargs):
        kwargs.setdefault("stdout", PIPE)
        return self.run(*popenargs, timeout=timeout, check=True, **kwargs).stdout

    def call(self, *popenargs, timeout=None, **kwargs):
        return self.run(*popenargs, timeout=timeout, **kwargs).returncode

    def check_call(self, *popenargs, **kwargs):
        self.run(*popenargs, check=True, **kwargs)
        return 0

    def getstatusoutput(self, cmd, *, encoding=None, errors=None):
        done = self.run(cmd, shell=True, text=True, stdout=PIPE, stderr=STDOUT)
        out = done.stdout[:-1] if done.stdout.endswith("\n") else done.stdout
        return done.returncode, out

    def getoutput(self, cmd, *, encoding=None, errors=None):
        return self.getstatusoutput(cmd)[1]


def _answer(value):
    """(code, stdout, stderr) of what the setup's shell function returned."""
    if isinstance(value, str):
        return 0, value, ""
    if isinstance(value, CompletedProcess):
        return value.returncode, value.stdout or "", value.stderr or ""
    if isinstance(value, tuple) and len(value) in (2, 3):
        code, out, *err = value
        return code, out, err[0] if err else ""
    raise TypeError("the shell function must return stdout text, (code, stdout[, stderr]) "
                    f"or a CompletedProcess, not {type(value).__name__}")


def build(context):
    """A fresh ``subprocess`` module for one run, working in ``context.folder``."""
    processes = Processes(context, context.folder)
    module = types.ModuleType(NAME, "Stand-in for subprocess (loopstep): never a process.")
    for name in ("run", "check_output", "call", "check_call", "getoutput", "getstatusoutput"):
        setattr(module, name, getattr(processes, name))
    for cls in (SubprocessError, CalledProcessError, TimeoutExpired, CompletedProcess):
        setattr(module, cls.__name__, cls)
    module.PIPE, module.STDOUT, module.DEVNULL = PIPE, STDOUT, DEVNULL
    return {NAME: module}
