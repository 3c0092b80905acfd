"""The lessons beside s06 run in the browser and print what CPython prints."""
import pytest
from playwright.sync_api import expect

from loopstep.runtime.catalog.lessons import load_lessons
from loopstep.runtime.recorder import record

try:
    from .page_helpers import BOOT_TIMEOUT, run_to_end, select_scenario, shown_output
except ImportError:
    from page_helpers import BOOT_TIMEOUT, run_to_end, select_scenario, shown_output

pytestmark = pytest.mark.hosting   # every bundled lesson's files as the host serves them

LESSONS = {lesson_id: lesson for lesson_id, lesson in load_lessons().items() if lesson_id != "s06"}


def lesson_path(site_kind: str, lesson_id: str) -> str:
    return f"/lessons/{lesson_id}" + ("/" if site_kind == "export" else "")


def test_the_other_lessons_are_there():
    assert {"lcc-s06", "s06-recursive", "s01"} <= set(LESSONS)


def presets_to_run(lesson, block, site_kind):
    """On the app every preset; on a static host (what differs there is how the lesson's
    files are served) the block's first preset and each preset answered by a recording
    file, the files a host serves for a run."""
    if site_kind == "server":
        return list(block.presets)
    return [name for number, name in enumerate(block.presets)
            if number == 0 or lesson.preset(name).recording]


STATIC_HOSTS = ("export", "nginx")


def lessons_on(site):
    """The lessons run against `site` (the --site option): on the app every one; the two
    static hosts serve one export and differ in their headers only, so each lesson runs on
    one of them, in turn (each host runs about half, of every kind)."""
    ids = sorted(LESSONS)
    if site not in STATIC_HOSTS:
        return ids
    return [lesson_id for number, lesson_id in enumerate(ids) if STATIC_HOSTS[number % 2] == site]


def test_the_static_hosts_run_every_lesson_between_them():
    assert sorted(lessons_on("export") + lessons_on("nginx")) == lessons_on("server") == sorted(LESSONS)
    assert lessons_on("export") and lessons_on("nginx")


def pytest_generate_tests(metafunc):
    if "lesson_id" in metafunc.fixturenames:
        metafunc.parametrize("lesson_id", lessons_on(metafunc.config.getoption("--site")))


def test_every_block_and_preset_prints_what_cpython_prints(page, server_url, site_kind, lesson_id):
    lesson = LESSONS[lesson_id]
    page.goto(server_url + lesson_path(site_kind, lesson_id))
    for block in lesson.blocks:
        b = page.locator(f'[data-loopstep-block="{lesson_id}/{block.id}"]')
        expect(b).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
        for name in presets_to_run(lesson, block, site_kind):
            expected = record(lesson_id, block.id, name)
            if b.get_attribute("data-scenario") != name:
                select_scenario(b, name)
            run_to_end(b)
            state = "error" if expected["error"] else "finished"
            expect(b).to_have_attribute("data-state", state)
            output = b.locator('[data-role="output"]')
            shown = shown_output(expected["stdout"])
            expect(output).to_have_text(shown, use_inner_text=True)
            assert output.text_content() == shown, (block.id, name)
