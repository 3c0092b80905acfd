"""axe-core audit at zero: every page kind, both languages, light and dark schemes, and
the block states a reader sees (loading, ready, finished, paused mid-run). Every page is
audited in both schemes: a lesson page as it loads in one language and running in the other
(the lessons take turns: RUN_LANG), the s06 panels and the embed's run in one scheme a language (Chinese
light, English dark), so that each state is audited in both languages and both schemes."""
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from loopstep.runtime.catalog.lessons import load_lessons

try:
    from .axe_audit import (assert_no_violations, assert_no_violations_in_schemes,
                            settle_animations)
    from .page_helpers import (BOOT_TIMEOUT, compare_with, drawn, pause_at, run_to_end,
                               slide_to, type_text)
except ImportError:
    from axe_audit import (assert_no_violations, assert_no_violations_in_schemes,
                           settle_animations)
    from page_helpers import (BOOT_TIMEOUT, compare_with, drawn, pause_at, run_to_end,
                              slide_to, type_text)

pytestmark = pytest.mark.slow   # every page kind in both languages and schemes: a long file

LESSONS = load_lessons()
SCHEMES = ["light", "dark"]
LANGS = ["zh", "en"]
# the scheme the states a run reaches (ready, finished, paused; panels open, every block
# paused on a page of several) are audited in, by language: each state in both schemes across the two
SCHEME_OF = {"zh": "light", "en": "dark"}


def site_path(site_kind: str, path: str, lang: str) -> str:
    """`path` ("/", "/lessons/s06", "/embed/s06/run_subagent") on the server or an export."""
    if site_kind == "export":
        folder = path.rstrip("/") + "/"
        return folder + ("en/" if lang == "en" else "")
    return path + ("?lang=en" if lang == "en" else "")


def main_block(lesson_id: str) -> str:
    symbols = [b.id for b in LESSONS[lesson_id].blocks]
    return "run_subagent" if "run_subagent" in symbols else symbols[0]


def open_page(page, server_url, site_kind, path, lang, scheme="light"):
    page.emulate_media(color_scheme=scheme)
    page.goto(server_url + site_path(site_kind, path, lang), wait_until="domcontentloaded")
    expect(page.locator("html")).to_have_attribute("lang", "en" if lang == "en" else "zh-CN")


def audit_schemes(page, where, schemes=SCHEMES):
    assert_no_violations_in_schemes(page, where, schemes=schemes)


def audit_run(page, b, where, schemes=SCHEMES):
    """Ready, finished, then paused two thirds into the run through the timeline, each in
    `schemes`."""
    expect(b).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    audit_schemes(page, f"{where}, ready", schemes)
    run_to_end(b)
    drawn(b)   # audited once the run's views are all drawn (run-views.js, data-drawn)
    audit_schemes(page, f"{where}, {b.get_attribute('data-state')}", schemes)
    timeline = b.locator('input[type=range][data-role="timeline"]')
    slide_to(timeline, int(timeline.get_attribute("max")) * 2 // 3)
    expect(b).to_have_attribute("data-state", "paused")
    drawn(b)
    expect(b.locator('[data-role="variables"] > *').first).to_be_visible()  # rows, or "no locals"
    expect(b.locator('[data-role="stack"] [data-frame]').first).to_be_attached()
    audit_schemes(page, f"{where}, paused", schemes)


STATIC = Path(__file__).resolve().parent.parent.parent / "web" / "static"


def test_the_schemes_differ_in_colours_only():
    """What lets audit_schemes audit a second scheme by COLOUR_RULES alone: the dark scheme
    sets custom properties (the colours) and `color-scheme`, nothing else, and no script
    asks for the scheme."""
    blocks = []
    for css in sorted((STATIC / "css").glob("*.css")):
        text = re.sub(r"/\*.*?\*/", "", css.read_text("utf-8"), flags=re.S)
        for found in re.finditer(r"@media[^{]*prefers-color-scheme[^{]*\{", text):
            depth, at = 1, found.end()
            while depth:
                depth += {"{": 1, "}": -1}.get(text[at], 0)
                at += 1
            blocks.append((css.name, text[found.end():at - 1]))
    assert blocks, "no colour scheme found in web/static/css"
    for name, body in blocks:
        declarations = [d.strip() for d in re.sub(r"[^{};]*\{|\}", ";", body).split(";") if d.strip()]
        assert declarations, name
        assert all(d.startswith("--") or d.startswith("color-scheme:") for d in declarations), \
            (name, [d for d in declarations if not d.startswith(("--", "color-scheme:"))])
    scripts = [js for js in (STATIC / "js").rglob("*.js") if "bundle" not in js.parts]
    assert scripts and not [js for js in scripts if "prefers-color-scheme" in js.read_text("utf-8")]


@pytest.mark.parametrize("lang", LANGS)
def test_index(page, server_url, site_kind, lang):
    open_page(page, server_url, site_kind, "/", lang)
    expect(page.locator("main")).to_be_visible()
    audit_schemes(page, f"index ({lang})")


SEVERAL = sorted(lesson_id for lesson_id, lesson in LESSONS.items() if len(lesson.blocks) > 1)
# the language a lesson page is audited running in (its main block's states in both schemes,
# every block paused on a page of several): the lessons take turns, so that each language's
# pages are audited running; in the other language the page is audited as it loads
RUN_LANG = {lesson_id: LANGS[number % 2] for number, lesson_id in enumerate(sorted(LESSONS))}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lesson_id", sorted(LESSONS))
def test_lesson_page(page, server_url, site_kind, lesson_id, lang):
    """As it loads (in both schemes); in its running language (RUN_LANG) instead its main
    block ready, finished and paused (in both schemes) and, on a page of several blocks,
    every block paused with its panels open (in the language's scheme: SCHEME_OF)."""
    open_page(page, server_url, site_kind, f"/lessons/{lesson_id}", lang)
    where = f"/lessons/{lesson_id} ({lang})"
    if lang != RUN_LANG[lesson_id]:
        audit_schemes(page, f"{where}, as it loads")
        return
    b = page.locator(f'[data-loopstep-block="{lesson_id}/{main_block(lesson_id)}"]')
    audit_run(page, b, where)
    if lesson_id in SEVERAL:
        audit_several_blocks_paused_with_their_panels_open(page, lesson_id, lang,
                                                           SCHEME_OF[lang])


@pytest.mark.parametrize("lang", LANGS)
def test_embed_page(page, server_url, site_kind, lang):
    open_page(page, server_url, site_kind, "/embed/s06/run_subagent", lang)
    b = page.locator('[data-loopstep-block="s06/run_subagent"]')
    audit_run(page, b, f"embed s06/run_subagent ({lang})", [SCHEME_OF[lang]])


def test_the_audit_finds_what_it_should(page, server_url, site_kind):
    """The audit is live: a low-contrast label and an unnamed button added to the page are found."""
    open_page(page, server_url, site_kind, "/lessons/s06", "zh", "light")
    page.evaluate("""() => {
        const p = document.createElement("p");
        p.textContent = "faint";
        p.style.color = "#d0d0d0";
        document.querySelector("main").append(p, document.createElement("button"));
    }""")
    with pytest.raises(AssertionError, match=re.compile(r"color-contrast[\s\S]*button-name|button-name[\s\S]*color-contrast")):
        assert_no_violations(page, "a page with two planted faults")


@pytest.mark.parametrize("lang", LANGS)
def test_open_panels(page, server_url, site_kind, lang):
    """The reader's own panels open: watches (a value and an error), a variable's history,
    and the breakpoint editor."""
    open_page(page, server_url, site_kind, "/lessons/s06", lang)
    b = page.locator('[data-loopstep-block="s06/run_subagent"]')
    expect(b).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    pause_at(b, 17)  # return outcome
    form = b.locator('form[data-role="watch"]')
    for expression in ("len(restricted)", "no_such_name"):
        type_text(form.locator('input[name="expression"]'), expression)
        form.locator('input[name="expression"]').press("Enter")
        expect(b.locator(f'[data-role="watches"] [data-watch="{expression}"] [data-role="value"]')).not_to_be_empty()
    b.locator('[data-var="outcome"] button[data-action="history"]').click()
    expect(b.locator('[data-role="history"] [data-change]').first).to_be_visible()
    gutter = b.locator('button[data-gutter="15"]')
    gutter.focus()
    gutter.press("Shift+Enter")
    expect(b.locator('form[data-role="breakpoint-editor"]')).to_be_visible()
    audit_schemes(page, f"/lessons/s06 ({lang}), panels open", [SCHEME_OF[lang]])


@pytest.mark.parametrize("lang", LANGS)
def test_what_if_panels(page, server_url, site_kind, lang):
    """Two runs compared side by side, and the setup editor open."""
    open_page(page, server_url, site_kind, "/lessons/s06", lang)
    b = page.locator('[data-loopstep-block="s06/run_subagent"]')
    expect(b).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    comparison = compare_with(b, "limit")
    expect(comparison.locator('[data-role="divergence"]')).to_be_visible()
    b.locator('button[data-action="edit-setup"]').click()
    expect(b.locator('[data-role="setup-editor"] [data-role="setup-text"]')).to_be_visible()
    audit_schemes(page, f"/lessons/s06 ({lang}), runs compared, setup editor open",
                  [SCHEME_OF[lang]])


def audit_several_blocks_paused_with_their_panels_open(page, lesson_id, lang, scheme):
    """Every block of the page paused at once, each with the same panels open (a variable's
    history, the breakpoint editor of its first line, the setup editor): each landmark and each
    control keeps a name of its own among the blocks. The page is the lesson page's test's,
    its main block left paused, switched to `scheme` in place."""
    page.emulate_media(color_scheme=scheme)
    settle_animations(page)
    blocks = [page.locator(f'[data-loopstep-block="{lesson_id}/{b.id}"]')
              for b in LESSONS[lesson_id].blocks]
    for b in blocks:
        expect(b).to_have_attribute("data-state", re.compile(r"^(ready|paused)$"),
                                    timeout=BOOT_TIMEOUT)
        run_to_end(b)
        timeline = b.locator('input[type=range][data-role="timeline"]')
        timeline.focus()
        page.keyboard.press("End")
        page.keyboard.press("ArrowLeft")
        expect(b).to_have_attribute("data-state", "paused")
        drawn(b)   # the history buttons are among the views drawn (omni-views.js)
        history = b.locator('[data-role="variables"] button[data-action="history"]').first
        if history.count():
            history.click()
            expect(b.locator('[data-role="history"]')).to_be_visible()
        b.locator("button[data-gutter]").first.focus()   # its first line (a file line in
        # a block of several functions)
        page.keyboard.press("Shift+Enter")
        expect(b.locator('form[data-role="breakpoint-editor"]')).to_be_visible()
        b.locator('button[data-action="edit-setup"]').click()
        expect(b.locator('[data-role="setup-editor"] [data-role="setup-text"]')).to_be_visible()
    assert_no_violations(page, f"/lessons/{lesson_id} ({lang}, {scheme}), every block paused, "
                               "panels open")
    # every named region of the page (sections, groups, landmarks) has a name of its own
    named = page.evaluate("""() => [...document.querySelectorAll(
        'section, [role=group], [role=region], nav, aside, form[aria-label], form[aria-labelledby]')]
        .filter((e) => e.getClientRects().length)
        .map((e) => [e.getAttribute('aria-label') || (e.getAttribute('aria-labelledby') || '')
          .split(' ').map((id) => document.getElementById(id)?.textContent.trim() ?? '').join(' '),
          e.tagName + '.' + e.className])
        .filter(([name]) => name)""")
    names = [name for name, _ in named]
    repeated = sorted({f"{name} ({where})" for name, where in named if names.count(name) > 1})
    assert not repeated, f"regions named alike on /lessons/{lesson_id}: {repeated}"
