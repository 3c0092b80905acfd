"""An axe-core accessibility audit of a page (WCAG 2.0/2.1/2.2 A and AA, best practices).

axe-core is vendored in tests/vendor/ by scripts/vendor_axe.sh (MPL-2.0, used by the
tests only). It is evaluated through the DevTools protocol, which the page's
Content-Security-Policy does not govern, so the page under audit stays unchanged.
"""
from __future__ import annotations

from pathlib import Path

AXE_VERSION = "4.14.1"
AXE_JS = Path(__file__).resolve().parent.parent / "vendor" / f"axe-core-{AXE_VERSION}" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]
# The rules of TAGS whose outcome depends on colours: all a colour scheme can change on a page
# whose schemes differ in colours only (test_accessibility.py checks loopstep.css for that).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
SCHEMES = ("light", "dark")


def axe_source() -> str:
    if not AXE_JS.is_file():
        raise AssertionError(f"axe-core is missing at {AXE_JS}: run scripts/vendor_axe.sh")
    return AXE_JS.read_text(encoding="utf-8")


def violations(page_or_frame, within: str | list[str] | None = None,
               rules: list[str] | None = None) -> list[dict]:
    """axe's violations of the page as it is now (each: id, impact, help, nodes' targets);
    `within`: a CSS selector of the part of the page to audit, or a list of selectors of the
    parts (every element each matches; default: all of it); `rules`: only these rules
    (default: every rule of TAGS)."""
    if not page_or_frame.evaluate("() => typeof window.axe === 'object'"):
        page_or_frame.evaluate(axe_source())
    return page_or_frame.evaluate(
        """async ([tags, within, rules]) => {
            const context = Array.isArray(within) ? { include: within.map((s) => [s]) }
                : within ? document.querySelector(within) : document;
            const result = await axe.run(context, {
                runOnly: rules ? { type: "rule", values: rules } : { type: "tag", values: tags },
                resultTypes: ["violations"] });
            return result.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map((n) => [n.target.join(" "), n.failureSummary]) }));
        }""", [TAGS, within, rules])


def report(found: list[dict]) -> str:
    lines = []
    for v in found:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} — {len(v['nodes'])} node(s)")
        lines += [f"    {target}: {summary.splitlines()[-1].strip()}" for target, summary in v["nodes"][:6]]
    return "\n".join(lines)


def assert_no_violations(page_or_frame, where: str, within: str | list[str] | None = None,
                         rules: list[str] | None = None) -> None:
    found = violations(page_or_frame, within, rules)
    assert not found, f"axe violations on {where}:\n{report(found)}"


# Until the page's animations have ended. One cancelled (a transition retargeted, its
# element gone) rejects its `finished` with an AbortError: what runs then is waited for.
SETTLED = """async () => {
    for (let running = document.getAnimations(); running.length;
         running = document.getAnimations().filter((a) => a.playState !== "finished")) {
        await Promise.allSettled(running.map((a) => a.finished));
    }
}"""


def settle_animations(page) -> None:
    page.evaluate(SETTLED)


def assert_no_violations_in_schemes(page, where: str, within: str | list[str] | None = None,
                                    schemes=SCHEMES) -> None:
    """The page as it stands, audited in each colour scheme: the scheme is switched in place,
    as a reader's system setting switches it (the styles follow prefers-color-scheme), and
    each audit waits for the transitions the switch started. The first scheme is audited
    whole, the others by the rules colours decide (COLOUR_RULES): the schemes differ in
    colours only (test_accessibility.py's test_the_schemes_differ_in_colours_only)."""
    backgrounds = set()
    for number, scheme in enumerate(schemes):
        page.emulate_media(color_scheme=scheme)
        settle_animations(page)
        assert_no_violations(page, f"{where} ({scheme})", within,
                             COLOUR_RULES if number else None)
        backgrounds.add(page.evaluate("() => getComputedStyle(document.body).backgroundColor"))
    assert len(backgrounds) == len(schemes), f"the scheme did not switch on {where}: {backgrounds}"
