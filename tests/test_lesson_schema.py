"""The schema walker of runtime/catalog/schema.py on small schemas of its own: the kinds of
values, the places an error names, and the pieces a new key would use (a group of keys of
which exactly one is given, a table of author-chosen keys)."""
import pytest

from loopstep.runtime.catalog.schema import (
    Bool, Int, Item, ListOf, MapOf, SchemaError, Table, Tables, Text, check, optional, render)

NAMES = ListOf(Text("a name"), "an array of names")
BLOCK = Table({"symbol": Text("a name"), "symbols": NAMES, "id": optional(Text("an id"))},
              one_of=[("symbol", "symbols")])
SCHEMA = Table({
    "blocks": Tables(BLOCK, "blocks", "block", label="symbol", unique=("symbol", "id")),
    "env": optional(MapOf(Text(blank=True), "a table of text")),
    "count": optional(Int("a count", minimum=0)),
})


def error(data):
    with pytest.raises(SchemaError) as caught:
        check(data, SCHEMA)
    return str(caught.value)


def test_valid_data_passes():
    check({"blocks": [{"symbol": "f"}, {"symbols": ["g", "h"], "id": "gh"}],
           "env": {"HOME": "/tmp", "EMPTY": ""}, "count": 0}, SCHEMA)


def test_exactly_one_key_of_a_group():
    assert error({"blocks": [{"symbol": "f", "symbols": ["f"]}]}) == \
        "(block f): expected exactly one of symbol, symbols, got symbol, symbols"
    assert error({"blocks": [{"id": "x"}]}) == \
        "(block #1): expected exactly one of symbol, symbols, got none"
    assert error({"blocks": [{"symbols": []}]}) == \
        "(block #1) [symbols]: expected an array of names, got an empty array"


def test_unique_keys_of_an_array_of_tables():
    assert error({"blocks": [{"symbols": ["a"], "id": "x"}, {"symbol": "b", "id": "x"}]}) == \
        "(block b): duplicate id 'x' (also block #1)"


def test_a_table_of_chosen_keys():
    assert error({"blocks": [{"symbol": "f"}], "env": {"HOME": 1}}) == \
        "[env.HOME]: expected text, got an integer 1"
    assert error({"blocks": [{"symbol": "f"}], "env": ["HOME"]}) == \
        "[env]: expected a table of text, got an array ['HOME']"


def test_integers_are_not_booleans_or_floats():
    for value, shown in [(True, "a boolean True"), (1.0, "a float 1.0"), ("1", "text '1'")]:
        assert error({"blocks": [{"symbol": "f"}], "count": value}) == \
            f"[count]: expected a count, got {shown}"
    assert error({"blocks": [{"symbol": "f"}], "count": -1}) == "[count]: expected a count, got -1"


def test_booleans_are_not_integers_or_text():
    flag = Table({"on": Bool()})
    check({"on": False}, flag)
    for value, shown in [(1, "an integer 1"), ("true", "text 'true'"), (0.0, "a float 0.0")]:
        with pytest.raises(SchemaError) as caught:
            check({"on": value}, flag)
        assert str(caught.value) == f"[on]: expected a boolean (true or false), got {shown}"


def test_long_values_are_cut_in_messages():
    message = error({"blocks": "x" * 500})
    assert message.startswith("[blocks]: expected [[blocks]] tables, got text 'xxx")
    assert message.endswith("...") and len(message) < 120


@pytest.mark.parametrize("path,shown", [
    ((), ""),
    (("title",), "[title]"),
    (("title", "zh"), "[title.zh]"),
    (("modules", Item(1)), "[modules] #2"),
    (("blocks", Item(0, "block", "f"), "presets", Item(2)), "(block f) [presets] #3"),
    (("stages", Item(3, "stage"), "lines", Item(0), "from"), "(stage #4) [lines] #1 [from]"),
])
def test_places_in_the_file(path, shown):
    assert render(path) == shown
