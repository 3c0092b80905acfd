"""A tiny lesson folder for tests that need a lessons directory of their own."""
from pathlib import Path

SOURCE = "def double(n):\n    twice = n * 2\n    return twice\n"
SETUP = "n = 21 if scenario == 'small' else 500\n"
TOML = """
title.zh = "小例子"
title.en = "A tiny lesson"
summary.zh = "把数翻倍。"
summary.en = "Doubles a number."
setup = "tiny/setup.py"
modules = ["tiny/code.py"]
[[presets]]
name = "small"
zh = "小数"
en = "Small"
[[presets]]
name = "large"
zh = "大数"
en = "Large"
[[blocks]]
symbol = "double"
source = "tiny/code.py"
presets = ["small", "large"]
entry = "print(double(n))\\n"
[[stages]]
id = "double"
zh = "翻倍"
en = "Double"
lines = [{ block = "double", from = 2, to = 3 }]
"""


def make_lesson(root: Path, toml: str = TOML, source: str = SOURCE) -> Path:
    """Write the lesson `tiny` into the lessons directory `root`; returns `root`."""
    folder = root / "tiny"
    folder.mkdir(parents=True)
    (folder / "lesson.toml").write_text(toml, encoding="utf-8")
    (folder / "code.py").write_text(source, encoding="utf-8")
    (folder / "setup.py").write_text(SETUP, encoding="utf-8")
    return root
