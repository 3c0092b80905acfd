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


def axe_source() -> str:
    if not AXE_JS.is_file():
        raise AssertionError(f"axe-core is missing at {AXE_JS}: run scripts/vendor_axe.sh")
    return AXE_JS.read_text(encoding="utf-8")


def violations(page_or_frame, within: str | None = None) -> list[dict]:
    """axe's violations of the page as it is now (each: id, impact, help, nodes' targets);
    `within`: a CSS selector of the part of the page to audit (default: all of it)."""
    if not page_or_frame.evaluate("() => typeof window.axe === 'object'"):
        page_or_frame.evaluate(axe_source())
    return page_or_frame.evaluate(
        """async ([tags, within]) => {
            const result = await axe.run(within ? document.querySelector(within) : document, {
                runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
            return result.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map((n) => [n.target.join(" "), n.failureSummary]) }));
        }""", [TAGS, within])


def report(found: list[dict]) -> str:
    lines = []
    for v in found:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} — {len(v['nodes'])} node(s)")
        lines += [f"    {target}: {summary.splitlines()[-1].strip()}" for target, summary in v["nodes"][:6]]
    return "\n".join(lines)


def assert_no_violations(page_or_frame, where: str, within: str | None = None) -> None:
    found = violations(page_or_frame, within)
    assert not found, f"axe violations on {where}:\n{report(found)}"
