import json
import re
import sys


def spin():
    n = 0
    while True:
        n += 1


def backtrack(text):
    found = re.match(r"(a+)+$", text)
    return found


def recurse(n):
    return recurse(n + 1)


def descend(n):
    return list(map(descend, [n + 1]))


def hold(deep):
    inner = deep
    size = len(inner)
    return size


def dump(deep):
    sys.setrecursionlimit(10**6)
    text = json.dumps(deep)
    return len(text)


def markup(label):
    tag = '<img src=x onerror="window.__pwned=1">'
    script = "<script>window.__pwned=2</script>"
    print(tag)
    print(script, label)
    return tag
