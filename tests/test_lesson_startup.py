"""`loopstep serve` and `loopstep export` stop at start-up on a malformed lesson folder:
exit code 2, one line on stderr naming the file and the reason, no traceback."""
import subprocess
import sys
from pathlib import Path

import pytest

from tiny_lesson import TOML, make_lesson

REPO = Path(__file__).resolve().parent.parent
TINY_PRESETS = '[[presets]]\nname = "small"\nzh = "小数"\nen = "Small"\n' \
               '[[presets]]\nname = "large"\nzh = "大数"\nen = "Large"\n'


def loopstep(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import sys, server; sys.exit(server.main(sys.argv[1:]))",
                           *args], cwd=REPO, capture_output=True, text=True, timeout=60)


def assert_stops(result: subprocess.CompletedProcess, message: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr == f"loopstep: {message}\n", result.stderr


@pytest.mark.parametrize("command", ["serve", "export"])
@pytest.mark.parametrize("toml,where,reason", [
    (TOML.replace('presets = ["small", "large"]', "presets = []"),
     "(block double) [presets]", "expected an array of preset names, got an empty array"),
    (TOML.replace(TINY_PRESETS, "").replace('modules = ["tiny/code.py"]',
                                            'modules = ["tiny/code.py"]\npresets = ["x"]'),
     "[presets]", "expected [[presets]] tables, got an array ['x']"),
    (TOML.replace('presets = ["small", "large"]', 'presets = ["small", "small"]'),
     "(block double) [presets] #2", "'small' is listed twice (also #1)"),
    (TOML + "\n[agent]\nmodel = \"double\"\n",
     "[agent.model]", "expected an array of dotted names, got text 'double'"),
], ids=["empty block presets", "top-level presets", "a preset twice", "bad agent table"])
def test_a_malformed_lesson_stops_the_command(tmp_path, command, toml, where, reason):
    assert TINY_PRESETS in TOML
    root = make_lesson(tmp_path / "lessons", toml)
    args = ["serve", "--port", "9"] if command == "serve" else ["export", str(tmp_path / "site")]
    result = loopstep(*args, "--lessons", str(root))
    assert_stops(result, f"{root / 'tiny' / 'lesson.toml'} {where}: {reason}")
    assert not (tmp_path / "site").exists()


def test_invalid_toml_stops_the_server(tmp_path):
    root = make_lesson(tmp_path, TOML.replace('setup = "tiny/setup.py"', 'setup = "tiny/setup.py'))
    result = loopstep("serve", "--port", "9", "--lessons", str(root))
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.startswith(f"loopstep: {root / 'tiny' / 'lesson.toml'}: invalid TOML: "), \
        result.stderr


def test_lessons_folders_that_hold_no_lesson(tmp_path):
    missing = tmp_path / "nothere"
    assert_stops(loopstep("serve", "--port", "9", "--lessons", str(missing)),
                 f"--lessons {missing}: no such directory")
    (tmp_path / "empty" / "notes").mkdir(parents=True)
    assert_stops(loopstep("serve", "--port", "9", "--lessons", str(tmp_path / "empty")),
                 f"--lessons {tmp_path / 'empty'}: no lesson here (a lesson is a folder holding "
                 "lesson.toml)")
