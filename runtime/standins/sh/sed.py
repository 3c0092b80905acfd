"""``sed``: ``-n``, ``-e``, ``-E``/``-r``, ``-i`` (``-iSUFFIX`` keeps a copy); addresses (``N``, ``$``, ``/re/``,
``A,B``, ``!``); commands ``s///`` (flags ``g``, ``p``, ``i``/``I``, a number), ``p``,
``d``, ``q``, ``=``, ``y``, ``a``/``i``/``c`` text, ``{ … }`` groups not included."""

import re

from . import regex
from .options import Usage, inputs, options


class _Script:
    def __init__(self, text, extended):
        self.text, self.i, self.extended = text, 0, extended
        self.commands = self.parse()
        if self.i < len(self.text):
            raise Usage(1, f"sed: -e expression #1, char {self.i + 1}: unexpected `}}'\n")

    def peek(self):
        return self.text[self.i:self.i + 1]

    def skip(self, chars=" \t"):
        while self.peek() and self.peek() in chars:
            self.i += 1

    def delimited(self, delimiter):
        out = ""
        while self.i < len(self.text) and self.text[self.i] != delimiter:
            if self.text[self.i] == "\\" and self.i + 1 < len(self.text):
                nxt = self.text[self.i + 1]
                out += nxt if nxt == delimiter else "\\" + nxt
                self.i += 2
                continue
            out += self.text[self.i]
            self.i += 1
        if self.i >= len(self.text):
            raise Usage(1, f"sed: -e expression #1, char {self.i}: unterminated `s' command\n")
        self.i += 1
        return out

    def address(self):
        if self.peek().isdigit():
            start = self.i
            while self.peek().isdigit():
                self.i += 1
            return int(self.text[start:self.i])
        if self.peek() == "$":
            self.i += 1
            return "$"
        if self.peek() in ("/", "\\"):
            if self.peek() == "\\":
                self.i += 1
            delimiter = self.text[self.i]
            self.i += 1
            body = self.delimited(delimiter)
            flags = 0
            if self.peek() == "I":
                self.i += 1
                flags = re.IGNORECASE
            return re.compile(regex.translate(body, self.extended), flags)
        return None

    def parse(self, inner=False):
        commands = []
        while True:
            self.skip(" \t;\n")
            if self.i >= len(self.text) or (self.peek() == "}"):
                if inner and self.peek() == "}":
                    self.i += 1
                elif inner:
                    raise Usage(1, f"sed: -e expression #1, char {self.i}: unmatched `{{'\n")
                return commands
            first = self.address()
            second = None
            if first is not None and self.peek() == ",":
                self.i += 1
                second = self.address()
            self.skip()
            negate = self.peek() == "!"
            if negate:
                self.i += 1
                self.skip()
            name = self.peek()
            self.i += 1
            argument = None
            if name == "s":
                delimiter = self.text[self.i]
                self.i += 1
                pattern, replacement = self.delimited(delimiter), self.delimited(delimiter)
                flags = ""
                while self.peek() and self.peek() not in "; \n}":
                    flags += self.peek()
                    self.i += 1
                cased = re.IGNORECASE if set(flags) & set("iI") else 0
                argument = (re.compile(regex.translate(pattern, self.extended), cased),
                            replacement, flags)
            elif name == "y":
                delimiter = self.text[self.i]
                self.i += 1
                argument = str.maketrans(self.delimited(delimiter), self.delimited(delimiter))
            elif name in "aic":
                self.skip(" \\\n")
                end = self.text.find("\n", self.i)
                end = len(self.text) if end < 0 else end
                argument, self.i = self.text[self.i:end].lstrip(), end
            elif name == "{":
                argument = self.parse(inner=True)
            elif name not in "pdq=Pn":
                raise Usage(1, f"sed: -e expression #1, char {self.i}: unknown command: "
                               f"`{name}'\n")
            commands.append([first, second, negate, name, argument, False])


def _replacement(template, match):
    out, i = "", 0
    while i < len(template):
        char = template[i]
        if char == "\\" and i + 1 < len(template):
            nxt = template[i + 1]
            out += match.group(int(nxt)) or "" if nxt.isdigit() else \
                {"n": "\n", "t": "\t"}.get(nxt, nxt)
            i += 2
            continue
        out += match.group() if char == "&" else char
        i += 1
    return out


def _matches(command, number, row, last):
    first, second, negate = command[0], command[1], command[2]

    def hit(address):
        if address == "$":
            return last
        if isinstance(address, int):
            return number == address
        return bool(address.search(row))

    if first is None:
        result = True
    elif second is None:
        result = hit(first)
    elif command[5]:
        if (isinstance(second, int) and number >= second) or (not isinstance(second, int)
                                                              and hit(second)):
            command[5] = False
        result = True
        if isinstance(second, int) and number > second:
            command[5], result = False, False
    else:
        result = hit(first)
        if result:
            command[5] = not (isinstance(second, int) and second <= number)
    return result != negate


class _Line:
    """One input line going through the script."""

    def __init__(self, row, number, last):
        self.row, self.number, self.last = row, number, last
        self.out, self.after, self.deleted, self.stop = [], [], False, False


def _apply(commands, line):
    """Run ``commands`` on ``line``; False when the cycle ends (``d``, ``q``, ``c``)."""
    for command in commands:
        if not _matches(command, line.number, line.row, line.last):
            continue
        name, argument = command[3], command[4]
        if name == "{":
            if not _apply(argument, line):
                return False
        elif name == "s":
            pattern, template, flags = argument
            count = 0 if "g" in flags else int(re.sub(r"\D", "", flags) or 1)
            line.row, done = _substitute(pattern, template, line.row, count)
            if done and "p" in flags:
                line.out.append(line.row)
        elif name == "p":
            line.out.append(line.row)
        elif name == "d":
            line.deleted = True
            return False
        elif name == "q":
            line.stop = True
            return False
        elif name == "=":
            line.out.append(str(line.number))
        elif name == "y":
            line.row = line.row.translate(argument)
        elif name == "i":
            line.out.append(argument)
        elif name == "a":
            line.after.append(argument)
        elif name == "c":
            line.deleted = True
            line.out.append(argument)
            return False
    return True


def _edit(script, text, quiet):
    rows = text.split("\n")
    ending = rows[-1] == ""
    if ending:
        rows.pop()
    out, cut = [], False
    for index, row in enumerate(rows):
        line = _Line(row, index + 1, index == len(rows) - 1)
        _apply(script.commands, line)
        out.extend(line.out)
        if not line.deleted and not quiet:
            out.append(line.row)
        out.extend(line.after)
        cut = line.last and not ending and bool(line.out or not (line.deleted or quiet))
        if line.stop:
            break
    text = "".join(f"{row}\n" for row in out)
    return text[:-1] if cut and not line.after else text


def _substitute(pattern, template, row, count):
    done, position, result, seen = False, 0, "", 0
    for match in pattern.finditer(row):
        seen += 1
        if count and seen < count:
            continue
        result += row[position:match.start()] + _replacement(template, match)
        position, done = match.end(), True
        if count:
            break
    return result + row[position:], done


def sed(shell, args, cwd, stdin):
    suffix = next((a[2:] for a in args if a.startswith("-i") and len(a) > 2), "")
    args = ["-i" if a.startswith("-i") or a.startswith("--in-place") else a for a in args]
    try:
        flags, values, rest = options("sed", args, "nErsiu", valued="ef",
                                      longs={"--quiet": "n", "--regexp-extended": "E"})
        scripts = values.get("e", [])
        if not scripts:
            if not rest:
                raise Usage(1, "Usage: sed [OPTION]... {script-only-if-no-other-script} "
                               "[input-file]...\n")
            scripts = [rest.pop(0)]
        script = _Script("\n".join(scripts), bool(flags & set("Er")))
    except Usage as usage:
        return usage.code, "", usage.message
    found, err, code = inputs(shell, rest, cwd, stdin,
                              lambda n, r: f"sed: can't read {n}: {r}\n")
    if "i" in flags:
        for name, text in found:
            if suffix:
                with open(shell.path(name + suffix, cwd), "w", encoding="utf-8",
                          newline="") as handle:
                    handle.write(text)
            with open(shell.path(name, cwd), "w", encoding="utf-8", newline="") as handle:
                handle.write(_edit(script, text, "n" in flags))
        return 4 if err else 0, "", err
    text = "".join(t for _, t in found)
    return (2 if err else 0), _edit(script, text, "n" in flags), err
