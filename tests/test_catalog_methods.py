"""Blocks of methods (`symbol = "Board.claim"`, nested classes, `symbols` mixing functions
and methods): what they display, numbered with the file's lines; a name that names no
method gives an error naming what there is; the block id with its dot in every URL of
the app and the export. The lesson is tests/method_lesson.py."""
import json

import pytest
from fastapi.testclient import TestClient

from loopstep import server
from loopstep.runtime.catalog.lessons import LessonError, load_lesson
from loopstep.web import page_data
from loopstep.web.export import export_site
from method_lesson import LINES, TOML, make_lesson


@pytest.fixture(scope="module")
def roots(tmp_path_factory):
    return [make_lesson(tmp_path_factory.mktemp("lessons"))]


@pytest.fixture(scope="module")
def lesson(roots):
    return load_lesson("board", roots)


def file_rows(first, last):
    return tuple((k, LINES[k - 1]) for k in range(first, last + 1))


def test_a_method_block_shows_the_methods_lines_as_in_the_file(lesson):
    block = lesson.block("Board.claim")
    assert (block.symbol, block.symbols, block.first_line) == ("Board.claim", ("Board.claim",), 1)
    assert (block.def_line, block.end_line, block.line_count) == (11, 17, 17)
    assert block.rows == file_rows(11, 17)
    assert block.rows[0] == (11, "    def claim(self, who):")   # its indentation kept
    assert block.text == "\n".join(LINES[10:17])
    assert block.spans == [[11, 17]] and not block.shows(10) and block.shows(16)
    assert lesson.stages[0].lines[0].first == 14   # stages name the file's lines too


def test_a_nested_classs_method_and_decorated_and_async_methods(lesson):
    write = lesson.block("Board.Ledger.write")
    assert write.rows == file_rows(31, 34) and write.rows[0][1].startswith("        def write")
    label = lesson.block("Board.label")   # @staticmethod: shown from its def, run from above
    assert (label.parts[0].code_line, label.def_line, label.rows) == (19, 20, file_rows(20, 21))
    wait = lesson.block("Board.wait")
    assert wait.rows == file_rows(23, 25) and wait.text.startswith("    async def wait(")


def test_symbols_mix_functions_and_methods_in_file_order(lesson):
    team = lesson.block("team")
    assert team.symbols == ("run_team", "Board.Ledger.write", "Board.claim")
    assert [(p.name, p.first, p.last) for p in team.parts] == [
        ("Board.claim", 11, 17), ("Board.Ledger.write", 31, 34), ("run_team", 37, 46)]
    # the lines between two shown parts: one gap row unless all blank
    assert team.rows == file_rows(11, 17) + (None,) + file_rows(31, 34) + file_rows(35, 46)
    assert team.spans == [[11, 17], [31, 46]]


def test_the_json_of_a_method_block(lesson):
    found = page_data.block_api(lesson.block("Board.claim"))
    assert (found["id"], found["symbol"], found["first_line"]) == ("Board.claim", "Board.claim", 1)
    assert found["code"] == "\n".join(LINES[10:17])
    assert found["parts"] == [{"name": "Board.claim", "from": 11, "to": 17,
                               "code": "\n".join(LINES[10:17])}]
    assert page_data.block_title(lesson.block("team")) == "run_team, Board.Ledger.write, Board.claim"


MISSING = [
    ("Board.take", "no method 'take' in class 'Board' (it has: __init__, claim, label, wait)"),
    ("Bord.claim", "no class 'Bord' at the top level (classes there: Board)"),
    ("Board.Ledger.read", "no method 'read' in class 'Board.Ledger' (it has: __init__, write)"),
    ("Board.Ledger", "'Board.Ledger' is a class, not a function: name one of its methods "
                     "(Board.Ledger.__init__, Board.Ledger.write)"),
    ("Board.claim.inner", "'claim' in class 'Board' is a function, not a class "
                          "(classes there: Ledger)"),
    ("run_team.x", "'run_team' at the top level is a function, not a class (classes there: Board)"),
    ("claim", "no top-level function 'claim' (it has: run_team; classes: Board, a method "
              "named as Class.method)"),
]


@pytest.mark.parametrize("name,reason", MISSING, ids=[case[0] for case in MISSING])
def test_a_name_that_names_no_method_says_what_there_is(tmp_path, name, reason):
    root = make_lesson(tmp_path, TOML.replace('symbol = "Board.label"', f'symbol = "{name}"'))
    with pytest.raises(LessonError) as caught:
        load_lesson("board", [root])
    code, toml = root / "board" / "code.py", root / "board" / "lesson.toml"
    assert str(caught.value) == f"{code}: {reason} (block {name} of {toml})"


def test_a_missing_method_among_symbols_is_named(tmp_path):
    root = make_lesson(tmp_path, TOML.replace('"Board.Ledger.write", "Board.claim"]',
                                              '"Board.Ledger.write", "Board.claim", "Board.x"]'))
    with pytest.raises(LessonError, match=r"code\.py: no method 'x' in class 'Board' "
                                          r"\(it has: __init__, claim, label, wait\) \(block team "):
        load_lesson("board", [root])


def test_the_dotted_block_id_in_the_apps_urls(roots):
    client = TestClient(server.create_app(roots))
    page = client.get("/lessons/board")
    assert page.status_code == 200
    assert 'data-loopstep-block="board/Board.claim"' in page.text
    assert 'data-loopstep-block="board/Board.Ledger.write"' in page.text
    for url, block_id in (("/embed/board/Board.claim", "Board.claim"),
                          ("/embed/board/Board.claim/", "Board.claim"),
                          ("/embed/board/Board.Ledger.write/en/", "Board.Ledger.write")):
        embed = client.get(url)
        assert embed.status_code == 200, url
        assert f'data-loopstep-block="board/{block_id}"' in embed.text, url
    block = client.get("/api/lessons/board/blocks/Board.claim").json()
    assert block["id"] == "Board.claim" and block["code"] == "\n".join(LINES[10:17])
    preset = client.get("/api/lessons/board/blocks/Board.Ledger.write/presets/team")
    assert preset.status_code == 200 and preset.json()["block"] == "Board.Ledger.write"
    assert client.get("/api/lessons/board/blocks/Board.take").status_code == 404


def test_the_dotted_block_id_in_the_export(roots, tmp_path):
    out = tmp_path / "site"
    export_site(out, {"board": load_lesson("board", roots)})
    for block_id, lang in (("Board.claim", ""), ("Board.Ledger.write", "en/")):
        page = (out / f"embed/board/{block_id}/{lang}index.html").read_text("utf-8")
        assert f'data-loopstep-block="board/{block_id}"' in page, block_id
    api = json.loads((out / "api/lessons/board.json").read_text("utf-8"))
    assert [b["id"] for b in api["blocks"]] == ["Board.claim", "team", "Board.Ledger.write",
                                                 "Board.label", "Board.wait"]
    preset = out / "api/lessons/board/blocks/Board.claim/presets/team.json"
    assert json.loads(preset.read_text("utf-8"))["block"] == "Board.claim"
