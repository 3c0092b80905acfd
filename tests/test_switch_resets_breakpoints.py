"""lesson.toml `switch_resets_breakpoints`: a lesson chooses whether a reader's switch of
preset clears a block's breakpoints. Loaded into the lesson, carried by the page data to
the page script's config (block.js acts on it: tests/browser/test_scenario_switch.py) and
said by the page's intro, in both languages. A wrong type: tests/test_catalog_schema.py."""
import html
import json
import re

import pytest
from fastapi.testclient import TestClient

from catalog_fixture import make
from loopstep import server
from loopstep.runtime.catalog.lessons import load_lesson, load_lessons
from loopstep.web import page_data

RESETS = {"zh": "切换输入会重置该代码块的运行和断点。",
          "en": "Switching the input resets that block's run and breakpoints."}
KEEPS = {"zh": "切换输入会重置该代码块的运行，断点保留。",
         "en": "Switching the input resets that block's run and keeps its breakpoints."}


@pytest.fixture(scope="module")
def client():
    return TestClient(server.create_app())


def test_the_key_is_false_unless_a_lesson_sets_it(tmp_path):
    assert load_lessons(make(tmp_path / "a"))["x"].switch_resets_breakpoints is False
    roots = make(tmp_path / "b", **{"lesson.toml": [
        ('modules = ["x/code.py"]', 'modules = ["x/code.py"]\nswitch_resets_breakpoints = true')]})
    assert load_lessons(roots)["x"].switch_resets_breakpoints is True


def test_the_bundled_s06_resets_and_the_other_lessons_keep():
    lessons = load_lessons()
    assert {i for i, lesson in lessons.items() if lesson.switch_resets_breakpoints} == {"s06"}


@pytest.mark.parametrize("lesson_id,resets", [("s06", True), ("s01", False), ("lcc-s06", False)])
def test_the_page_data_carries_it_to_every_block_and_the_intro(lesson_id, resets):
    lesson = load_lesson(lesson_id)
    view = page_data.lesson_view(lesson, "zh")
    assert view["switch_resets_breakpoints"] is resets
    config = page_data.page_config(lesson, "zh", view)
    assert {b["switchResetsBreakpoints"] for b in config["blocks"].values()} == {resets}


def page(client, path: str) -> tuple[str, dict]:
    """A lesson page's intro text and its page config."""
    text = client.get(path).text
    intro = re.search(r'<p class="intro">(.*?)</p>', text, re.S).group(1)
    config = re.search(r'id="loopstep-config">(.*?)</script>', text, re.S).group(1)
    return html.unescape(intro), json.loads(config)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_intro_says_what_a_switch_does_in_both_languages(client, lang):
    query = "?lang=en" if lang == "en" else "?lang=zh"
    intro, config = page(client, f"/lessons/s06{query}")
    assert intro.endswith(RESETS[lang]) and KEEPS[lang] not in intro, intro
    assert "{switch}" not in intro
    assert config["blocks"]["s06/run_subagent"]["switchResetsBreakpoints"] is True
    intro, config = page(client, f"/lessons/s01{query}")
    assert intro.endswith(KEEPS[lang]) and RESETS[lang] not in intro, intro
    assert config["blocks"]["s01/run_loop"]["switchResetsBreakpoints"] is False
