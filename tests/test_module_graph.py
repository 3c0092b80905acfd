"""The document's head announces page.js's whole static module graph (web/module_graph.py)
and, on a page with shipped traces, Debug's path and its shown presets' traces."""
from __future__ import annotations

import re

from loopstep.runtime.catalog.lessons import load_lesson
from loopstep.web import module_graph, views

LINKS = views.Links(static=False)


def test_the_graph_is_every_module_page_js_imports_statically():
    modules = module_graph.page_modules()
    assert modules[0] == "page.js"
    assert len(modules) == len(set(modules))
    for rel in modules:
        assert (module_graph.JS / rel).is_file(), rel
        for imported in module_graph.static_imports(rel):
            assert imported in modules, (rel, imported)
    # imported by block.js through block-runs.js: two levels down
    assert {"page/block.js", "page/block-runs.js", "page/shipped.js"} <= set(modules)
    # loaded on first use (dynamic import), not announced as the page's own graph
    assert not {"model/trace.js", "agent/agent-view.js", "whatif/whatif.js"} & set(modules)


def test_an_import_over_several_lines_is_followed(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.js").write_text(
        'import {\n  one,\n  two,\n} from "../b.js";\nexport { three } from "./c.js";\n'
        'const later = import("./d.js");\n', "utf-8")
    monkeypatch.setattr(module_graph, "JS", tmp_path)
    assert module_graph.static_imports("a/x.js") == ["b.js", "a/c.js"]


def test_the_lesson_page_announces_its_graph_and_its_traces():
    html = views.lesson_html(load_lesson("s06"), "zh", "/", LINKS)
    announced = re.findall(r'<link rel="modulepreload" href="/static/js/([^"]+)">', html)
    assert announced == list(module_graph.preloads(True))
    fetched = re.findall(r'<link rel="preload" as="fetch" crossorigin href="([^"]+)">', html)
    assert [re.sub(r"\?v=\w+$", "", u).rsplit("/", 2)[-2:] for u in fetched] == [
        ["child_tools", "normal.json"], ["run_subagent", "normal.json"],
        ["task_result", "normal.json"]]
