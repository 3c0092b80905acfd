"""``awk`` (the common subset, parsed by awk_parse.py): ``-F``, ``-v``, fields, ``NR``,
``NF``, ``FNR``, ``FS``, ``OFS``, ``ORS``, ``FILENAME``, patterns, ranges, ``BEGIN``/
``END``, ``print``/``printf`` and the functions ``length``, ``substr``, ``index``,
``split``, ``sub``, ``gsub``, ``match``, ``sprintf``, ``tolower``, ``toupper``,
``int``, ``sqrt``, ``exp``, ``log``, ``sin``, ``cos``, ``atan2``, ``rand``, ``srand``.
Numbers print as integers when whole, else with ``%.6g``; ``for (k in a)`` visits keys
in the order they were added."""

import re

from . import regex
from .awk_parse import AwkError, Parser
from .options import Usage, inputs, options


ROUNDS = 100_000


class StrNum(str):
    """A field or input value: compares as a number when it looks like one."""


_NUMBER = re.compile(r"\s*[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+)")


def number(value):
    if isinstance(value, float):
        return value
    match = _NUMBER.match(value)
    return float(match.group()) if match else 0.0


def text(value):
    """A value as text: whole numbers that fit 32 bits as integers, others ``%.6g`` (as
    the system's awk, mawk, writes them)."""
    if isinstance(value, float):
        return str(int(value)) if value == int(value) and abs(value) < 2 ** 31 else \
            f"{value:.6g}"
    return value


def _looks_numeric(value):
    return isinstance(value, float) or (isinstance(value, StrNum) and
                                        re.fullmatch(r"\s*[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+)\s*",
                                                     value) is not None)


class _Next(Exception):
    pass


class _Exit(Exception):
    def __init__(self, code):
        self.code = code


class Awk:
    def __init__(self, program, variables, shell, cwd):
        self.items = Parser(program).program()
        self.vars = {"FS": " ", "OFS": " ", "ORS": "\n", "NR": 0.0, "NF": 0.0, "FNR": 0.0,
                     "SUBSEP": "\x1c", "RS": "\n", "FILENAME": ""}
        self.vars.update(variables)
        self.arrays, self.fields, self.out = {}, [""], []
        self.shell, self.cwd, self.files, self.rounds = shell, cwd, {}, 0
        self.assigned = []

    # -- records ---------------------------------------------------------------------
    def set_record(self, line):
        separator = text(self.vars["FS"])
        if separator == " ":
            parts = line.split()
        elif len(separator) == 1 and separator != "\\":
            parts = line.split(separator) if line else []
        else:
            parts = re.split(regex.translate(separator, True), line) if line else []
        self.fields = [StrNum(line)] + [StrNum(p) for p in parts]
        self.vars["NF"] = float(len(parts))

    def field(self, index):
        index = int(number(index))
        return self.fields[index] if index < len(self.fields) else StrNum("")

    def set_field(self, index, value):
        index = int(number(index))
        if index == 0:
            self.set_record(text(value))
            return
        while len(self.fields) <= index:
            self.fields.append(StrNum(""))
        self.fields[index] = text(value)
        self.vars["NF"] = float(len(self.fields) - 1)
        self.fields[0] = StrNum(text(self.vars["OFS"]).join(self.fields[1:]))

    # -- running ---------------------------------------------------------------------
    def run(self, found):
        try:
            for kind, _, action in self.items:
                if kind == "BEGIN":
                    self.execute(action)
            self.vars.update(self.assigned)   # NAME=value operands, after BEGIN
            if any(kind in ("main", "END") for kind, _, _ in self.items):
                for name, data in found:
                    self.vars["FILENAME"], self.vars["FNR"] = ("" if name == "-" else name), 0.0
                    for line in data.split("\n")[:-1] if data.endswith("\n") else \
                            (data.split("\n") if data else []):
                        self.vars["NR"] = number(self.vars["NR"]) + 1
                        self.vars["FNR"] = number(self.vars["FNR"]) + 1
                        self.set_record(line)
                        self.record()
            code = 0
        except _Exit as done:
            code = done.code
        try:
            for kind, _, action in self.items:
                if kind == "END":
                    self.execute(action)
        except _Exit as done:
            code = done.code
        return code

    def record(self):
        try:
            for kind, pattern, action in self.items:
                if kind != "main" or not self.selected(pattern):
                    continue
                if action is None:
                    self.emit(text(self.fields[0]) + text(self.vars["ORS"]), None)
                else:
                    self.execute(action)
        except _Next:
            pass

    def selected(self, pattern):
        if pattern is None:
            return True
        if pattern[0] == "range":
            state = pattern[3]
            if not state[0]:
                if not self.truth(self.evaluate(pattern[1])):
                    return False
                state[0] = True
            if self.truth(self.evaluate(pattern[2])):
                state[0] = False
            return True
        return self.truth(self.evaluate(pattern))

    def emit(self, data, target):
        if target is None:
            self.out.append(data)
            return
        mode, where = target
        name = text(self.evaluate(where))
        full = self.shell.path(name, self.cwd)
        if name not in self.files:
            self.files[name] = True
            with open(full, "a" if mode == ">>" else "w", encoding="utf-8"):
                pass
        with open(full, "a", encoding="utf-8") as handle:
            handle.write(data)

    def execute(self, node):
        kind = node[0]
        if kind == "block":
            for statement in node[1]:
                self.execute(statement)
        elif kind == "expr":
            self.evaluate(node[1])
        elif kind == "print":
            values = [self.evaluate(a) for a in node[1]] or [self.fields[0]]
            self.emit(text(self.vars["OFS"]).join(text(self.output(v)) for v in values)
                      + text(self.vars["ORS"]), node[2])
        elif kind == "printf":
            values = [self.evaluate(a) for a in node[1]]
            self.emit(format_(text(values[0]), values[1:]) if values else "", node[2])
        elif kind == "if":
            if self.truth(self.evaluate(node[1])):
                self.execute(node[2])
            elif node[3] is not None:
                self.execute(node[3])
        elif kind == "while":
            while self.truth(self.evaluate(node[1])):
                self.round()
                self.execute(node[2])
        elif kind == "for":
            if node[1] is not None:
                self.evaluate(node[1])
            while node[2] is None or self.truth(self.evaluate(node[2])):
                self.round()
                self.execute(node[4])
                if node[3] is not None:
                    self.evaluate(node[3])
        elif kind == "forin":
            for key in list(self.arrays.get(node[2], {})):
                self.vars[node[1]] = key
                self.execute(node[3])
        elif kind == "next":
            raise _Next()
        elif kind == "exit":
            raise _Exit(int(number(self.evaluate(node[1]))) if node[1] else 0)
        elif kind == "delete":
            array = self.arrays.setdefault(node[1], {})
            if node[2] is None:
                array.clear()
            else:
                array.pop(self.key(node[2]), None)

    def round(self):
        """Count a loop's round: a program's loops stop after ROUNDS in all."""
        self.rounds += 1
        if self.rounds > ROUNDS:
            raise AwkError(f"loop stopped after {ROUNDS} rounds")

    def output(self, value):
        return text(value) if isinstance(value, float) else value

    def key(self, items):
        return text(self.vars["SUBSEP"]).join(text(self.evaluate(i)) for i in items)

    @staticmethod
    def truth(value):
        if isinstance(value, float):
            return value != 0
        if isinstance(value, StrNum) and _looks_numeric(value):
            return number(value) != 0
        return value != ""

    def evaluate(self, node):
        from .awk_eval import evaluate
        return evaluate(self, node)


def format_(template, values):
    """awk's ``printf``/``sprintf``: ``%d %i %s %f %e %g %x %o %c %%`` with flags."""
    out, index = [], 0

    def replace(match):
        nonlocal index
        spec, kind = match.group(1), match.group(2)
        if kind == "%":
            return "%"
        value = values[index] if index < len(values) else ""
        index += 1
        if kind in "di":
            return ("%" + spec + "d") % int(number(value))
        if kind in "xXo":
            return ("%" + spec + kind) % int(number(value))
        if kind in "feEgG":
            return ("%" + spec + kind) % number(value)
        if kind == "c":
            return ("%" + spec + "s") % (chr(int(value)) if isinstance(value, float)
                                          else text(value)[:1])
        return ("%" + spec + "s") % text(value)

    out.append(re.sub(r"%([-+ #0]*\d*(?:\.\d+)?)([diouxXeEfgGcs%])", replace, template))
    return "".join(out)


def awk(shell, args, cwd, stdin):
    try:
        flags, values, rest = options("awk", args, "", valued="Fvf")
    except Usage as usage:
        return 2, "", usage.message
    variables = {}
    if "F" in values:
        separator = values["F"][-1]
        variables["FS"] = "\t" if separator == "t" else separator.replace("\\t", "\t")
    for item in values.get("v", []):
        name, _, value = item.partition("=")
        variables[name] = StrNum(value)
    if "f" in values:
        try:
            with open(shell.path(values["f"][-1], cwd), encoding="utf-8") as handle:
                program = handle.read()
        except (OSError, TypeError):
            return 2, "", f"awk: can't open file {values['f'][-1]}\n"
    elif not rest:
        return 2, "", "usage: awk [-F fs][-v var=value][prog | -f progfile][file ...]\n"
    else:
        program = rest.pop(0)
    names = [n for n in rest if not re.match(r"[A-Za-z_]\w*=", n)]
    assigned = [n.partition("=")[::2] for n in rest if n not in names]
    try:
        machine = Awk(program, variables, shell, cwd)
    except AwkError as error:
        return 2, "", f"awk: {error}\n"
    machine.assigned = [(k, StrNum(v.replace("\\t", "\t"))) for k, v in assigned]
    found, err, code = inputs(shell, names, cwd, stdin,
                              lambda n, r: f"awk: cannot open {n} ({r})\n")
    try:
        status = machine.run(found)
    except (AwkError, ZeroDivisionError) as error:
        return 2, "".join(machine.out), f"awk: {error}\n"
    return (2 if err else status), "".join(machine.out), err
