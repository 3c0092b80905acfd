import math
import sys


def bad_repr():
    class Broken:
        def __repr__(self):
            raise RuntimeError("no repr for you")
    broken = Broken()
    items = [broken, 1]
    return len(items)


def huge_values():
    class Loud:
        def __repr__(self):
            return "x" * 10_000
    loud = Loud()
    text = "ab" * 400
    many = list(range(120))
    table = {i: str(i) * 3 for i in range(70)}
    return len(text), len(many), len(table)


def cycles():
    ring = [1, 2]
    ring.append(ring)
    loop = {"name": "loop"}
    loop["self"] = loop
    pair = ([], )
    pair[0].append(pair)
    return len(ring), len(loop)


def big_numbers():
    million = 10 ** 6
    huge = 2 ** 200
    enormous = 7 ** 20000
    negative = -(10 ** 25)
    return huge % 1000, enormous % 10


def floats():
    nan = float("nan")
    inf = math.inf
    negative_inf = -inf
    tiny = 1e-300 * 1e-300
    third = 1 / 3
    z = complex(1, -2)
    same = nan == nan
    return same, inf > 10 ** 308


def binary(text):
    raw = text.encode("utf-8")
    mutable = bytearray(raw[:3])
    mutable[0] = 65
    view = memoryview(raw)[:2].tobytes()
    return raw, mutable, view


def collections_mix():
    empty_set = set()
    frozen = frozenset({3, 1, 2})
    mixed = {1, "a", (2, 3), None}
    one = (1,)
    empty = ()
    nested = {"k": [(1,), {"x": {2}}, [[["deep", [["deeper"]]]]]]}
    keys = {(1, 2): "tuple key", 3.5: "float key", None: "none key"}
    return one, empty, empty_set


def mutate(n):
    items = []
    for i in range(n):
        items.append(i)
        items[0] = -i
    alias = items
    alias.append("shared")
    config = {"depth": 1}
    config["depth"] += 1
    config.setdefault("extra", [])
    config["extra"].append("x")
    return items is alias, config


def strings(name):
    html = f"<b>{name}</b> & <i>friends</i>"
    quote = 'it\'s "quoted"'
    multi = "line one\nline two\ttabbed"
    emoji = "猫🐱" * 3
    long_text = "数" * 300
    escaped = "\x00\x7f\\"
    return len(html), emoji


def printing(count):
    print("a", "b", sep="-", end="|")
    print("c", end="")
    print()
    sys.stdout.write("written directly\n")
    print("to stderr", file=sys.stderr)
    for i in range(count):
        print(i, end=" " if i < count - 1 else "\n")
    print("🐱<tag>&amp;")
    return count


def big_output(lines):
    total = 0
    for i in range(lines):
        print(f"line {i:04d}: " + "=" * (i % 50))
        total += i
    return total


def asks():
    try:
        answer = input("your name? ")
    except EOFError:
        answer = "nobody"
    return answer


def stdlib_user(text):
    import collections
    import json
    import re
    words = re.findall(r"\w+", text.lower())
    counts = collections.Counter(words)
    common = counts.most_common(2)
    encoded = json.dumps(dict(common))
    parsed = json.loads(encoded)
    root = math.isqrt(len(words))
    return common, parsed, root


def builtin_objects():
    fn = len
    cls = dict
    mod = math
    method = [].append
    rng = range(3, 9, 2)
    sl = slice(1, None)
    ellipsis = ...
    none = None
    flags = (True, False)
    return type(rng).__name__
