"""``python`` in the stand-in shell (runtime/standins/python_command.py): each command is
compared with the same command run by this CPython in a real process, in the same folder."""

import subprocess
import sys

import pytest

from loopstep.runtime.standins.shell import Shell


@pytest.fixture
def folder(tmp_path):
    root = (tmp_path / "run").resolve()
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "tools.py").write_text(
        "def slug(text):\n    return '-'.join(text.lower().split())\n")
    (root / "pkg" / "__main__.py").write_text(
        "import sys\nfrom pkg.tools import slug\nprint(slug(' '.join(sys.argv[1:])))\n")
    (root / "script.py").write_text(
        "import sys\nprint('args', sys.argv[1:], __name__)\nprint('to err', file=sys.stderr)\n"
        "sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)\n")
    (root / "boom.py").write_text("def f():\n    raise ValueError('bad')\n\nf()\n")
    (root / "writes.py").write_text("open('out.txt', 'w').write('from python\\n')\n")
    return root


LINES = [
    "python -c \"print('hi'); import sys; print(sys.argv)\" a b",
    "python3 -c \"from pkg.tools import slug; print(slug('Hello World 56'))\"",
    "python script.py 3",
    "python script.py",
    "python -m pkg Two Words",
    "python boom.py",
    "python -c \"raise SystemExit('stopped')\"",
    "python -c \"import sys; sys.exit(4)\"",
    "python -c \"1/0\"",
    "python -c \"import json; print(json.dumps({'a': 1}))\"",
    "python -c \"print(__name__, input())\"",
    "python missing.py",
]


def _real(line, folder, stdin):
    done = subprocess.run(line.replace("python3 ", "python ").replace("python ", f"{sys.executable} -B ", 1),
                          shell=True, cwd=folder, capture_output=True, text=True, input=stdin)
    return done.returncode, done.stdout, done.stderr.replace(sys.executable, "python")


@pytest.mark.parametrize("line", LINES)
def test_python_commands_answer_as_cpython_does(folder, line):
    stdin = "typed\n"
    assert Shell(folder).run_line(line, str(folder), stdin) == _real(line, folder, stdin)


def test_python_is_isolated_from_the_program_that_called_the_shell(folder, monkeypatch):
    monkeypatch.chdir(folder)
    before = (dict(sys.modules), list(sys.path), list(sys.argv), sys.stdout)
    shell = Shell(folder)
    assert shell.run_line("python -c \"import pkg.tools, colorsys; x = 1\"", str(folder)) == \
        (0, "", "")
    assert "pkg" not in sys.modules and "pkg.tools" not in sys.modules
    assert (dict(sys.modules), list(sys.path), list(sys.argv), sys.stdout) == before
    assert "x" not in globals()
    # a module written after an import of the same folder is seen: no stale finder cache
    (folder / "late.py").write_text("print('late')\n")
    assert shell.run_line("python -c \"import late\"", str(folder)) == (0, "late\n", "")
    assert shell.run_line("python writes.py && cat out.txt", str(folder)) == \
        (0, "from python\n", "")
    assert not list(folder.rglob("__pycache__"))   # no bytecode written into the run's folder


def test_python_m_finds_only_the_standard_library_and_the_folder(folder):
    shell = Shell(folder)
    assert shell.run_line("python -m pytest --collect-only -q", str(folder)) == \
        (1, "", "python: No module named pytest\n")
    assert shell.known("python -m pkg x", str(folder))
    assert shell.known("python -m json.tool --help", str(folder))
    assert not shell.known("python -m pytest -q", str(folder))   # to the setup's shell
