"""A lesson whose blocks are methods (`symbol = "Board.claim"`), written into a lessons
directory of a test's own: a class with an `__init__`, a method a loop calls, a nested
class, a static method and an async method."""
from pathlib import Path

SOURCE = '''"""A task board that teammates claim tasks from."""


class Board:
    """The open tasks, and who took each."""

    def __init__(self, tasks):
        self.tasks = list(tasks)
        self.taken = {}

    def claim(self, who):
        for task in self.tasks:
            if task not in self.taken:
                self.taken[task] = who
                note = f"{who} took {task}"
                return note
        return None

    @staticmethod
    def label(text):
        return text.upper()

    async def wait(self, rounds):
        left = rounds - 1
        return left

    class Ledger:
        def __init__(self):
            self.lines = []

        def write(self, line):
            entry = f"- {line}"
            self.lines.append(entry)
            return entry


def run_team(names):
    board = Board(["plan", "build", "test"])
    ledger = Board.Ledger()
    for who in names:
        note = board.claim(who)
        if note is None:
            break
        ledger.write(Board.label(note))
    print(len(ledger.lines))
    return ledger.lines
'''
SETUP = 'names = ["ann", "bo", "cy", "di"]\n'
# an async method stepped without an event loop: its coroutine driven by send()
AWAITED = """coro = Board([]).wait(3)
try:
    coro.send(None)
except StopIteration as done:
    print(done.value)
"""
TOML = f'''
title = {{zh = "任务板", en = "A task board"}}
summary = {{zh = "队友认领任务。", en = "Teammates claim tasks."}}
setup = "board/setup.py"
modules = ["board/code.py"]
[[presets]]
name = "team"
zh = "四人"
en = "Four"
[[blocks]]
symbol = "Board.claim"
source = "board/code.py"
entry = "run_team(names)"
[[blocks]]
id = "team"
symbols = ["run_team", "Board.Ledger.write", "Board.claim"]
source = "board/code.py"
entry = "run_team(names)"
[[blocks]]
symbol = "Board.Ledger.write"
source = "board/code.py"
entry = "run_team(names)"
[[blocks]]
symbol = "Board.label"
source = "board/code.py"
entry = "run_team(names)"
[[blocks]]
symbol = "Board.wait"
source = "board/code.py"
entry = """{AWAITED}"""
[[stages]]
id = "take"
zh = "认领"
en = "Take"
lines = [{{ block = "Board.claim", from = 14, to = 16 }}]
'''
LINES = SOURCE.split("\n")


def line_of(text):
    """The file line (1-based) whose text, stripped, is `text`."""
    return next(k + 1 for k, line in enumerate(LINES) if line.strip() == text)


def make_lesson(root: Path, toml: str = TOML, source: str = SOURCE) -> Path:
    """Write the lesson `board` into the lessons directory `root`; returns `root`."""
    folder = root / "board"
    folder.mkdir(parents=True)
    (folder / "lesson.toml").write_text(toml, encoding="utf-8")
    (folder / "code.py").write_text(source, encoding="utf-8")
    (folder / "setup.py").write_text(SETUP, encoding="utf-8")
    return root
