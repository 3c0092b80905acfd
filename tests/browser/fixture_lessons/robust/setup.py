# Inputs of the robustness fixture: a string that makes the regex backtrack for
# hours, a label that looks like markup, and lists nested very deep.
import sys

TEXT = "a" * 40 + "b"
label = "<b>bold?</b>"


def nested(depth):
    """A list nested `depth` deep, built once per runtime and then kept.

    Freeing a list nested this deep overflows the browser's stack in Pyodide
    (CPython's guard against deep deallocation watches the wasm shadow stack, not
    the JS engine's), so the fixture never lets it go.
    """
    kept = sys.__dict__.setdefault("_robust_nested", {})
    if depth not in kept:
        value = []
        for _ in range(depth):
            value = [value]
        kept[depth] = value
    return kept[depth]
