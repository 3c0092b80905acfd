"""The stand-in shell (runtime/standins/shell.py) on input it cannot run as asked: a
clear message and a failing status, never a Python exception, and a loop that would
never end stops."""

import pytest

from loopstep.runtime.standins.shell import Shell


@pytest.fixture
def shell(tmp_path):
    (tmp_path / "a.txt").write_text("alpha\nbeta\n")
    return Shell(tmp_path)


@pytest.mark.parametrize("line, code, err", [
    ("echo 'abc", 2, "bash: -c: line 1: unexpected EOF while looking for matching `''\n"),
    ("echo |", 2, "bash: -c: line 2: syntax error: unexpected end of file\n"),
    ("echo )", 2, "bash: -c: line 1: syntax error near unexpected token `)'\n"
                  "bash: -c: line 1: `echo )'\n"),
    ("sleep 1 &", 2, "sh: unsupported syntax: &\n"),
    ("a=(1 2)", 2, "sh: unsupported syntax: arrays\n"),
    ("case x in", 2, "bash: -c: line 2: syntax error: unexpected end of file\n"),
    ("f() echo", 2, "bash: -c: line 1: syntax error near unexpected token `echo'\n"
                    "bash: -c: line 1: `f() echo'\n"),
    ("f() { f; }; f", 1, "bash: line 1: maximum function nesting level exceeded (40)\n"),
    ("if true; then echo", 2, "bash: -c: line 2: syntax error: unexpected end of file\n"),
    ("echo $((1/0))", 1, "bash: line 1: division by 0\n"),
    ("grep -E '(' a.txt", 2, "grep: invalid regular expression: missing ), unterminated "
                             "subpattern at position 0\n"),
    ("head -n x a.txt", 1, "head: invalid number of lines: 'x'\n"),
    ("find . -maxdepth x", 2, "find: invalid literal for int() with base 10: 'x'\n"),
    ("awk 'BEGIN { while (1) {} }'", 2, "awk: loop stopped after 100000 rounds\n"),
    ("while true; do :; done", 0, "sh: loop stopped after 10000 rounds\n"),
    ("cat ../outside", 1, "cat: ../outside: No such file or directory\n"),
    ("cd /", 1, "bash: line 1: cd: /: No such file or directory\n"),
])
def test_bad_lines_fail_clearly(shell, tmp_path, line, code, err):
    assert shell.run_line(line, str(tmp_path)) == (code, "", err)


def test_compound_lines_are_ours_only_when_every_command_is(shell, tmp_path):
    assert shell.known("for f in *.txt; do wc -l \"$f\" | sort; done", str(tmp_path))
    assert shell.known("cat > x.py << 'EOF'\nprint(1)\nEOF", str(tmp_path))
    assert not shell.known("if true; then git status; fi", str(tmp_path))
    assert not shell.known("ls | while read f; do make \"$f\"; done", str(tmp_path))
    assert not shell.known("echo a &", str(tmp_path))
    assert shell.known("bash -c 'ls | wc -l'", str(tmp_path))
    assert not shell.known("bash -c 'git status'", str(tmp_path))
    assert shell.known("greet() { echo hi; }; greet", str(tmp_path))
    assert not shell.known("f() { git status; }; f", str(tmp_path))
    assert not shell.known("case x in x) make;; esac", str(tmp_path))
