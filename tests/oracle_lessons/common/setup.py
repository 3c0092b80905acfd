import itertools
import sys

TOTAL = 0
SCRIPT = [("plan", 3), ("read", 2), ("write", 4), ("check", 1), ("done", 5)]
