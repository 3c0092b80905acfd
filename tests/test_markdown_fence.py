"""The `loopstep` Markdown fence (web/markdown_fence.py), through Python-Markdown by its
entry-point name as mkdocs.yml's `markdown_extensions` loads it."""
import markdown
import pytest

from loopstep.web.markdown_fence import FenceError

ORIGIN = "https://lessons.example.org/"


def convert(text: str, origin: str = ORIGIN) -> str:
    return markdown.markdown(text, extensions=["loopstep", "fenced_code"],
                             extension_configs={"loopstep": {"origin": origin}})


def test_a_fence_becomes_the_embed_div_and_one_script_tag():
    html = convert("# A\n\n```loopstep s06/run_subagent scenario=limit\n```\n\ntext\n\n"
                   "~~~~loopstep s06/task_result lang=en title=\"Task result\"\n~~~~\n")
    assert '<div data-loopstep="s06/run_subagent" data-scenario="limit"></div>' in html
    assert '<div data-loopstep="s06/task_result" data-lang="en" data-title="Task result"></div>' in html
    assert html.count('<script type="module" src="https://lessons.example.org/static/embed.js"></script>') == 1
    assert "<p>text</p>" in html and "```" not in html


def test_other_fences_are_left_to_the_other_extensions():
    html = convert("```python\nprint('loopstep s06/x')\n```\n")
    assert "data-loopstep" not in html and "<code" in html and "print(" in html


def test_the_script_comes_again_on_the_next_page():
    md = markdown.Markdown(extensions=["loopstep"], extension_configs={"loopstep": {"origin": ""}})
    for _ in range(2):
        assert md.convert("```loopstep s01/run_loop\n```").count('src="/static/embed.js"') == 1
        md.reset()


def test_values_are_escaped():
    html = convert('```loopstep s06/run_subagent title="<b>&\'x\'"\n```')
    assert 'data-title="&lt;b&gt;&amp;&#x27;x&#x27;"' in html and "<b>" not in html


@pytest.mark.parametrize("fence, reason", [
    ("```loopstep\n```", "<lesson>/<symbol>"),
    ("```loopstep s06\n```", "<lesson>/<symbol>"),
    ('```loopstep s06/x"><script>\n```', "No closing quotation"),
    ("```loopstep s06/x colour=red\n```", "unknown option `colour=red`"),
    ("```loopstep s06/x scenario\n```", "unknown option `scenario`"),
    ("```loopstep s06/x lang=fr\n```", "lang must be one of zh, en"),
    ("```loopstep s06/x\nno end", "is not closed"),
])
def test_a_bad_fence_stops_the_build_with_the_reason(fence, reason):
    with pytest.raises(FenceError, match=reason.replace("(", r"\(")):
        convert(fence)
