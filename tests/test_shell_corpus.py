"""The stand-in shell against real bash and GNU coreutils (tests/shell_corpus.py): every
command of the corpus run by both on the same files, in CPython and in the bundled
Pyodide (Node; without the ``python`` commands, whose real counterpart is this CPython).
Prints the commands that differ; at least 95 % must be identical."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import shell_corpus
from pyodide_node import record_in_pyodide

TARGET = 0.95


def _gnu():
    try:
        done = subprocess.run(["ls", "--version"], capture_output=True, text=True)
    except OSError:
        return False
    return shutil.which("bash") is not None and "GNU coreutils" in done.stdout


needs_gnu = pytest.mark.skipif(not _gnu(), reason="needs bash and GNU coreutils")


@pytest.fixture(scope="module")
def bash():
    return {command: shell_corpus.real(command) for command in shell_corpus.COMMANDS}


def _rate(expected, got):
    """(share of the commands of ``got`` answered as ``expected``, those that differ)."""
    differ = [c for c in got if expected[c] != got[c]]
    for command in differ:
        print(f"--- {command}\n  bash:     {expected[command]!r}\n  stand-in: {got[command]!r}")
    print(f"{len(got) - len(differ)} of {len(got)} identical")
    return 1 - len(differ) / len(got), differ


def test_the_corpus_is_the_suites_own_and_large_enough():
    assert len(set(shell_corpus.COMMANDS)) == len(shell_corpus.COMMANDS) >= 100


@needs_gnu
def test_the_stand_in_shell_answers_as_bash_does(bash):
    got = {command: shell_corpus.standin(command) for command in shell_corpus.COMMANDS}
    rate, differ = _rate(bash, got)
    assert rate >= TARGET, f"{rate:.0%} identical; differ: {differ}"


@needs_gnu
def test_the_stand_in_shell_answers_the_same_in_pyodide(bash, tmp_path):
    corpus = Path(shell_corpus.__file__).read_text("utf-8")
    code = (corpus.split("\ndef real(")[0]
            + "\nimport json\nfrom runtime.standins.shell import Shell\n"
            "def run(command):\n"
            "    folder = make_folder()\n"
            "    saved = os.getcwd()\n"
            "    try:\n"
            "        os.chdir(folder)\n"
            "        code, out, err = Shell(folder).run_line(command, str(folder))\n"
            "        return [code, normalise(out, folder), normalise(err, folder)]\n"
            "    finally:\n"
            "        os.chdir(saved)\n"
            "        shutil.rmtree(folder, ignore_errors=True)\n"
            "json.dumps({c: run(c) for c in COMMANDS if not c.startswith('python')})")
    found = json.loads(record_in_pyodide(tmp_path, {}, [], code=code)["value"])
    got = {command: tuple(answer) for command, answer in found.items()}
    assert len(got) >= 100
    rate, differ = _rate(bash, got)
    assert rate >= TARGET, f"{rate:.0%} identical in Pyodide; differ: {differ}"
