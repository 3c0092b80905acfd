"""Every text colour of the light and the dark scheme is ≥ 4.5:1 on the surfaces it is
drawn on (WCAG AA), including syntax highlighting and the terminal palette; axe checks
the colours a page shows, this checks the ones it may show."""
import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parent.parent / "web" / "static" / "css" / "loopstep.css").read_text()

TEXT = ["fg", "muted", "accent", "ok-text", "warn-text", "error", "faded", "break",
        *(f"hl-{k}" for k in ("keyword", "function", "builtin", "string", "doc", "comment",
                              "number", "operator")),
        *(f"ansi-{n}" for n in range(16))]
SURFACES = ["panel", "bg", "code-bg"]
PAIRS = [
    *((t, s) for t in TEXT for s in SURFACES),
    *((t, "current") for t in ["fg", "muted", "faded"] + [t for t in TEXT if t.startswith("hl-")]),
    ("fg", "changed"), ("error", "error-soft"), ("on-accent", "accent"), ("on-accent", "muted"),
    ("fg", "control-bg"), ("warn-text", "panel"),
    *(("fg", f"ansi-bg-{n}") for n in range(8)),
]


def scheme(dark: bool) -> dict[str, str]:
    blocks = re.findall(r":root\s*\{([^}]*)\}", CSS)
    light = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", blocks[0]))
    if not dark:
        return light
    media = CSS.index("prefers-color-scheme: dark")
    body = re.search(r":root\s*\{([^}]*)\}", CSS[media:]).group(1)
    return {**light, **dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", body))}


def luminance(hex_colour: str) -> float:
    def channel(c: int) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_formula_matches_wcag_examples():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_text_colour_is_readable(dark):
    colours = scheme(dark)
    assert set(TEXT) | set(SURFACES) <= set(colours)
    low = [(t, s, round(contrast(colours[t], colours[s]), 2)) for t, s in PAIRS
           if contrast(colours[t], colours[s]) < 4.5]
    assert not low, low


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_control_edges_are_visible(dark):
    colours = scheme(dark)
    for surface in ("panel", "bg"):
        assert contrast(colours["control-edge"], colours[surface]) >= 3.0


def test_dark_scheme_overrides_every_colour():
    light, dark = scheme(False), scheme(True)
    assert {k for k in light if light[k] == dark[k]} == set()
