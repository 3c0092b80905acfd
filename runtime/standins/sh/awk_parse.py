"""The common subset of awk's language, parsed into tuples for awk.py: patterns and
actions, ``BEGIN``/``END``, ``print``/``printf`` (with ``>``), assignments (``=``,
``+=`` …, ``++``/``--``), ``if``/``else``, ``while``, ``for (;;)``, ``for (k in a)``,
``next``, ``exit``, ``delete``, arrays, ``$n``, regular expressions, ``~``/``!~``,
``in``, concatenation, the ternary and the built-in functions of awk.py."""

import re

_TOKEN = re.compile(r"""
    (?P<space>[ \t]+|\\\n|\#[^\n]*)
  | (?P<newline>[\n;])
  | (?P<number>\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+)
  | (?P<string>"(?:\\.|[^"\\])*")
  | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op>\+\+|--|\+=|-=|\*=|/=|%=|\^=|==|!=|<=|>=|&&|\|\||!~|>>|[-+*/%^!<>=~?:,(){}\[\]$|])
""", re.VERBOSE)
_KEYWORDS = {"BEGIN", "END", "print", "printf", "if", "else", "while", "for", "in", "next",
             "exit", "delete", "return", "do", "getline", "function", "nextfile"}


class AwkError(Exception):
    pass


def tokenize(text):
    out, i = [], 0
    while i < len(text):
        if text[i] == "/" and _regex_allowed(out):
            end = i + 1
            while end < len(text) and text[end] != "/":
                end += 2 if text[end] == "\\" else 1
            out.append(("regex", text[i + 1:end]))
            i = end + 1
            continue
        match = _TOKEN.match(text, i)
        if not match:
            raise AwkError(f"line 1: syntax error at or near {text[i]}")
        kind = match.lastgroup
        value = match.group()
        i = match.end()
        if kind == "space":
            continue
        if kind == "string":
            value = _unescape(value[1:-1])
        elif kind == "name" and value in _KEYWORDS:
            kind = "keyword"
        elif kind == "name" and text[i:i + 1] == "(":
            kind = "call"
        out.append((kind, value))
    out.append(("eof", ""))
    return out


def _unescape(text):
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "\\": "\\", '"': '"',
                                       "/": "/", "r": "\r"}.get(m.group(1),
                                                              "\\" + m.group(1)), text)


def _regex_allowed(tokens):
    if not tokens:
        return True
    kind, value = tokens[-1]
    return kind in ("newline",) or (kind == "op" and value not in (")", "]", "$", "++", "--")) \
        or (kind == "keyword" and value not in ("getline",))


class Parser:
    def __init__(self, text):
        self.tokens, self.i = tokenize(text), 0

    def peek(self, offset=0):
        return self.tokens[self.i + offset]

    def take(self, value=None):
        token = self.tokens[self.i]
        if value is not None and token[1] != value:
            raise AwkError(f"line 1: syntax error at or near {token[1] or 'end of file'}")
        self.i += 1
        return token

    def at(self, *values):
        return self.peek()[1] in values and self.peek()[0] != "string"

    def newlines(self):
        while self.peek()[0] == "newline":
            self.i += 1

    def program(self):
        items = []
        self.newlines()
        while self.peek()[0] != "eof":
            if self.at("BEGIN", "END"):
                kind = self.take()[1]
                self.newlines()
                items.append((kind, None, self.block()))
            else:
                pattern = None if self.at("{") else self.expression()
                if self.at(","):
                    self.take()
                    pattern = ("range", pattern, self.expression(), [False])
                action = self.block() if self.at("{") else None
                items.append(("main", pattern, action))
            self.newlines()
        return items

    def block(self):
        self.take("{")
        body = []
        self.newlines()
        while not self.at("}"):
            body.append(self.statement())
            self.newlines()
        self.take("}")
        return ("block", body)

    def simple_end(self):
        if self.peek()[0] == "newline":
            self.take()

    def statement(self):
        if self.at("{"):
            return self.block()
        if self.at("if"):
            self.take()
            self.take("(")
            test = self.expression()
            self.take(")")
            self.newlines()
            body = self.statement()
            self.newlines_before("else")
            other = None
            if self.at("else"):
                self.take()
                self.newlines()
                other = self.statement()
            return ("if", test, body, other)
        if self.at("while"):
            self.take()
            self.take("(")
            test = self.expression()
            self.take(")")
            self.newlines()
            return ("while", test, self.statement())
        if self.at("for"):
            return self.for_statement()
        if self.at("next", "exit", "nextfile"):
            word = self.take()[1]
            value = None
            if word == "exit" and not (self.at("}") or self.peek()[0] in ("newline", "eof")):
                value = self.expression()
            self.simple_end()
            return (word, value)
        if self.at("delete"):
            self.take()
            name = self.take()[1]
            index = None
            if self.at("["):
                self.take()
                index = self.expression_list()
                self.take("]")
            self.simple_end()
            return ("delete", name, index)
        if self.at("print", "printf"):
            word = self.take()[1]
            grouped = self.at("(")
            start = self.i
            args = []
            if not (self.at("}", ">", ">>", "|") or self.peek()[0] in ("newline", "eof")):
                args = self.expression_list(no_gt=True)
                if grouped and len(args) == 1 and args[0][0] == "group":
                    args = args[0][1]
            del start
            target = None
            if self.at(">", ">>"):
                mode = self.take()[1]
                target = (mode, self.concatenation(no_gt=True))
            self.simple_end()
            return (word, args, target)
        value = self.expression()
        self.simple_end()
        return ("expr", value)

    def newlines_before(self, word):
        saved = self.i
        self.newlines()
        if not self.at(word):
            self.i = saved

    def for_statement(self):
        self.take()
        self.take("(")
        if self.peek()[0] == "name" and self.peek(1)[1] == "in" and self.peek(3)[1] == ")":
            name = self.take()[1]
            self.take("in")
            array = self.take()[1]
            self.take(")")
            self.newlines()
            return ("forin", name, array, self.statement())
        start = None if self.at(";") else self.expression()
        self.take(";")
        test = None if self.at(";") else self.expression()
        self.take(";")
        step = None if self.at(")") else self.expression()
        self.take(")")
        self.newlines()
        return ("for", start, test, step, self.statement())

    def expression_list(self, no_gt=False):
        items = [self.expression(no_gt)]
        while self.at(","):
            self.take()
            self.newlines()
            items.append(self.expression(no_gt))
        return items

    # -- expressions, lowest precedence first --------------------------------------------
    def expression(self, no_gt=False):
        left = self.ternary(no_gt)
        if self.at("=", "+=", "-=", "*=", "/=", "%=", "^=") and left[0] in ("var", "index",
                                                                             "field"):
            operator = self.take()[1]
            return ("assign", operator, left, self.expression(no_gt))
        return left

    def ternary(self, no_gt):
        test = self.binary(0, no_gt)
        if self.at("?"):
            self.take()
            yes = self.ternary(no_gt)
            self.take(":")
            return ("cond", test, yes, self.ternary(no_gt))
        return test

    _LEVELS = [("||",), ("&&",), ("in",), ("~", "!~"), ("<", "<=", "!=", "==", ">", ">=")]

    def binary(self, level, no_gt):
        if level == len(self._LEVELS):
            return self.concatenation(no_gt)
        left = self.binary(level + 1, no_gt)
        operators = self._LEVELS[level]
        while self.at(*operators) and not (no_gt and self.at(">")):
            operator = self.take()[1]
            if operator in ("&&", "||"):
                self.newlines()
            if operator == "in":
                left = ("in", left, self.take()[1])
                continue
            left = ("binary", operator, left, self.binary(level + 1, no_gt))
        return left

    def concatenation(self, no_gt=False):
        left = self.additive()
        while self.peek()[0] in ("number", "string", "name", "call", "regex") or \
                self.at("$", "(", "-", "+", "++", "--"):
            if self.at("-", "+") or (self.peek()[0] == "keyword"):
                break
            left = ("concat", left, self.additive())
        return left

    def additive(self):
        left = self.multiplicative()
        while self.at("+", "-"):
            operator = self.take()[1]
            left = ("binary", operator, left, self.multiplicative())
        return left

    def multiplicative(self):
        left = self.unary()
        while self.at("*", "/", "%"):
            operator = self.take()[1]
            left = ("binary", operator, left, self.unary())
        return left

    def unary(self):
        if self.at("!"):
            self.take()
            return ("not", self.unary())
        if self.at("-", "+"):
            operator = self.take()[1]
            return ("binary", "-", ("num", 0.0), self.unary()) if operator == "-" else \
                ("binary", "+", ("num", 0.0), self.unary())
        return self.power()

    def power(self):
        base = self.postfix()
        if self.at("^"):
            self.take()
            return ("binary", "^", base, self.unary())
        return base

    def postfix(self):
        if self.at("++", "--"):
            operator = self.take()[1]
            target = self.postfix()
            return ("assign", "+=" if operator == "++" else "-=", target, ("num", 1.0))
        value = self.primary()
        if self.at("++", "--") and value[0] in ("var", "index", "field"):
            operator = self.take()[1]
            return ("post", operator, value)
        return value

    def primary(self):
        kind, value = self.take()
        if kind == "number":
            return ("num", float(value))
        if kind == "string":
            return ("str", value)
        if kind == "regex":
            return ("match", ("field", ("num", 0.0)), ("regex", value))
        if value == "$":
            return ("field", self.postfix() if not self.at("(") else self.primary())
        if value == "(":
            items = self.expression_list()
            self.take(")")
            return items[0] if len(items) == 1 else ("group", items)
        if kind == "call":
            self.take("(")
            args = [] if self.at(")") else self.expression_list()
            self.take(")")
            return ("call", value, args)
        if kind == "name":
            if self.at("["):
                self.take()
                index = self.expression_list()
                self.take("]")
                return ("index", value, index)
            if value == "length":
                return ("call", "length", [])
            return ("var", value)
        raise AwkError(f"line 1: syntax error at or near {value or 'end of file'}")
