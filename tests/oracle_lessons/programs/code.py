import random
import sys


class InsufficientFunds(Exception):
    def __init__(self, needed):
        super().__init__(f"need {needed} more")
        self.needed = needed


def make_multiplier(factor):
    calls = 0

    def multiply(x):
        nonlocal calls
        calls += 1
        return x * factor * calls
    return multiply


def bank(balance, withdrawals):
    history = []
    for amount in withdrawals:
        try:
            if amount > balance:
                raise InsufficientFunds(amount - balance)
            balance -= amount
            history.append(-amount)
        except InsufficientFunds as problem:
            history.append(f"refused ({problem.needed})")
    return balance, history


def grades(students):
    ranked = sorted(students, key=lambda s: (-s["score"], s["name"]))
    for place, student in enumerate(ranked, start=1):
        student["place"] = place
    best = ranked[0]["name"]
    print(*[s["name"] for s in ranked], sep=", ")
    return best


def collatz(n):
    steps = 0
    while True:
        if n == 1:
            break
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def hanoi(n, source="A", target="C", spare="B"):
    if n == 0:
        return 0
    moved = hanoi(n - 1, source, spare, target)
    print(f"move disk {n} {source}->{target}")
    moved += 1 + hanoi(n - 1, spare, target, source)
    return moved


def safe_ratios(pairs):
    try:
        ratios = [a / b for a, b in pairs]
    except ZeroDivisionError as error:
        ratios = str(error)
    return ratios


def shuffle_deal(seed):
    rng = random.Random(seed)
    deck = [f"{rank}{suit}" for suit in "SH" for rank in "AKQ"]
    rng.shuffle(deck)
    hand, rest = deck[:3], deck[3:]
    hand.sort()
    return hand, len(rest)


def word_freq(text):
    counts = {}
    for word in text.split():
        word = word.strip(".,!?").lower()
        if not word:
            continue
        counts[word] = counts.get(word, 0) + 1
    top = max(counts, key=counts.get)
    print(f"{top!r:>10} appears {counts[top]:03d} times")
    return counts


def matrix(n):
    grid = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            grid[i][j] = i * n + j
    transposed = [list(row) for row in zip(*grid)]
    diagonal = [grid[k][k] for k in range(n)]
    return transposed, diagonal


def quits(limit):
    for n in range(10):
        print("working on", n)
        if n == limit:
            sys.exit(f"stopping at {n}")
    return "never"


def finish_early(items):
    for item in items:
        if item is None:
            print("nothing more to do")
            sys.exit()
        print("item", item)


def deep_sum(n):
    if n == 0:
        return 0
    rest = deep_sum(n - 1)
    return n + rest
