"""Screen readers hear where the cursor settled, through one polite live region, once per
burst of moves (a timeline drag), not on every frame."""
from playwright.sync_api import expect

try:
    from .page_helpers import block, open_lesson, pause_at, press, wait_ready
except ImportError:
    from page_helpers import block, open_lesson, pause_at, press, wait_ready

CALL_LINE = 15  # outcome = run_loop(lambda history: ask(history, restricted), execute,
RETURN_LINE = 17


def region(page):
    return page.locator('[data-role="announce"]')


def test_a_pause_is_announced_with_its_line(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind, lang="en")
    live = region(page)
    expect(live).to_have_count(1)
    expect(live).to_have_attribute("aria-live", "polite")
    b = block(page, "run_subagent")
    wait_ready(b)
    pause_at(b, CALL_LINE)
    expect(live).to_have_text(f"Paused at line {CALL_LINE}: outcome = run_loop(…)")
    press(b, "step-over")
    expect(live).to_have_text(f"Paused at line {RETURN_LINE}: return outcome")
    # the visible status is not a live region of its own: it would speak every frame
    expect(b.locator('[data-role="status"]')).not_to_have_attribute("aria-live", "polite")


def test_a_timeline_drag_is_announced_once_when_it_settles(page, server_url, site_kind):
    open_lesson(page, server_url, site_kind)
    b = block(page, "run_subagent")
    wait_ready(b)
    pause_at(b, CALL_LINE)
    live = region(page)
    expect(live).to_contain_text(f"第 {CALL_LINE} 行")
    page.evaluate("""() => {
        window.announced = [];
        const live = document.querySelector('[data-role="announce"]');
        new MutationObserver(() => window.announced.push(live.textContent))
            .observe(live, { childList: true, characterData: true, subtree: true });
    }""")
    frames = b.evaluate("""(root) => {
        const input = root.querySelector('input[data-role="timeline"]');
        const max = Number(input.max);
        for (let v = 0; v <= max; v++) {
            input.value = String(v);
            input.dispatchEvent(new Event("input", { bubbles: true }));
        }
        return max + 1;
    }""")
    assert frames > 20
    last = int(b.locator('[aria-current="step"]').first.get_attribute("data-line"))
    expect(live).to_contain_text(f"第 {last} 行")
    assert page.evaluate("window.announced.length") == 1, page.evaluate("window.announced")
