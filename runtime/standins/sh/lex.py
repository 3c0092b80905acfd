"""Command lines into tokens for parse.py: words kept as written (quotes, ``$…``,
backquotes, globs), operators, redirections (fd first) and here-documents, whose text
is read from the lines after their command."""

OPERATORS = ("&&", "||", ";;", "|&", "|", ";", "&", "(", ")", "\n")
REDIRECTS = ("<<<", "<<", "&>>", "&>", ">>", ">&", ">|", "<&", "<>", ">", "<")


class Unsupported(Exception):
    """Syntax the stand-in shell does not run (its text: what was found), or a syntax
    error (its text as bash words it: ``syntax error …``, ``unexpected EOF …``)."""

class Heredoc:
    """A here-document's text, filled in when the lexer reaches the line after it."""

    def __init__(self, delimiter, strip):
        self.quoted = any(c in delimiter for c in "'\"\\")
        self.delimiter = delimiter.replace("'", "").replace('"', "").replace("\\", "")
        self.strip, self.body = strip, None

def _closing(text, start, opener, closer):
    """Index just after the ``closer`` matching ``text[start]`` == opener (quotes respected)."""
    depth, i = 0, start
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "'" and opener != "{":
            i = _quote_end(text, i)
            continue
        if char == '"':
            i = _quote_end(text, i)
            continue
        if char == opener:
            depth += 1
        elif char == closer:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise Unsupported(f"unexpected EOF while looking for matching `{closer}'")


def _quote_end(text, i):
    """Index just after the quoted string starting at ``text[i]``."""
    quote = text[i]
    i += 1
    while i < len(text):
        if text[i] == "\\" and quote == '"':
            i += 2
            continue
        if text[i] == "$" and quote == '"' and text[i + 1:i + 2] == "(":
            i = _closing(text, i + 1, "(", ")")
            continue
        if text[i] == "`" and quote == '"':
            i = _quote_end(text, i)
            continue
        if text[i] == quote:
            return i + 1
        i += 1
    raise Unsupported(f"unexpected EOF while looking for matching `{quote}'")


def tokens(line):
    """[(kind, text)]: kind "word", "op" or "redir" (text: the operator, fd first)."""
    found, i, word, pending = [], 0, "", []
    testing = [0, False]   # (tokens seen, inside [[ … ]]): its && || < > ( ) are words
    while i < len(line):
        char = line[i]
        if testing[0] != len(found):
            testing[:] = [len(found), _testing(found, testing[1])]
        if testing[1] and not word and line.startswith(("&&", "||"), i):
            found.append(("word", line[i:i + 2]))
            i += 2
            continue
        if testing[1] and char in "<>()!":
            word += char
            i += 1
            continue
        if char == "(" and line.startswith("((", i) and not word and _command_start(found):
            end = _closing(line, i, "(", ")")
            if line[end - 2:end] != "))":
                raise Unsupported("((")
            found.append(("arith", line[i + 2:end - 2]))
            i = end
            continue
        if char == "\n" and pending:
            if word:
                found.append(("word", word))
                word = ""
            found.append(("op", "\n"))
            i = _bodies(line, i + 1, pending)
            continue
        if char in " \t" or (char == "#" and not word):
            if word:
                found.append(("word", word))
                word = ""
            if char == "#":
                while i < len(line) and line[i] != "\n":
                    i += 1
                continue
            i += 1
            continue
        if char == "\\":
            if line[i + 1:i + 2] == "\n":
                i += 2
                continue
            word += line[i:i + 2]
            i += 2
            continue
        if char in "'\"`":
            end = _quote_end(line, i)
            word, i = word + line[i:end], end
            continue
        if char == "$" and line[i + 1:i + 2] in ("(", "{"):
            opener = line[i + 1]
            end = _closing(line, i + 1, opener, ")" if opener == "(" else "}")
            word, i = word + line[i:end], end
            continue
        redirect = next((r for r in REDIRECTS if line.startswith(r, i)), None)
        if redirect == "<<" and (not word or word.isdigit()):
            strip = line.startswith("<<-", i)
            i += 3 if strip else 2
            while i < len(line) and line[i] in " \t":
                i += 1
            start = i
            while i < len(line) and line[i] not in " \t\n;&|<>()":
                i = _quote_end(line, i) if line[i] in "'\"" else i + 1
            if start == i:
                raise Unsupported("syntax error near unexpected token `newline'")
            document = Heredoc(line[start:i], strip)
            pending.append(document)
            found.append(("redir", word + "<<"))
            found.append(("doc", document))
            word = ""
            continue
        if redirect and (not word or word.isdigit()):
            fd = word
            word = ""
            found.append(("redir", fd + redirect))
            i += len(redirect)
            continue
        if char == "(" and word.endswith("=") and word[:-1].isidentifier():
            raise Unsupported("arrays")
        operator = next((o for o in OPERATORS if line.startswith(o, i)), None)
        if operator or redirect:
            if word:
                found.append(("word", word))
                word = ""
            if redirect:
                found.append(("redir", redirect))
                i += len(redirect)
            else:
                found.append(("op", operator))
                i += len(operator)
            continue
        word += char
        i += 1
    if word:
        found.append(("word", word))
    if pending:
        _bodies(line + "\n", len(line) + 1, pending)
    return found


def _command_start(found):
    return not found or found[-1][0] == "op" or (found[-1][0] == "word" and found[-1][1] in (
        "then", "do", "else", "elif", "{", "!", "if", "while", "until"))


def _testing(found, inside):
    """Whether the tokens so far end inside ``[[ … ]]``."""
    kind, text = found[-1]
    if kind == "word" and text == "[[" and _command_start(found[:-1]):
        return True
    if kind == "word" and text == "]]":
        return False
    return inside


def _bodies(line, i, pending):
    """Fill the pending here-documents from ``line[i:]``; the index after the last one."""
    while pending:
        document = pending.pop(0)
        rows = []
        while True:
            if i >= len(line):
                break
            end = line.find("\n", i)
            end = len(line) if end < 0 else end
            row = line[i:end]
            i = end + 1
            if document.strip:
                row = row.lstrip("\t")
            if row == document.delimiter:
                break
            rows.append(row + "\n")
        document.body = "".join(rows)
    return i
