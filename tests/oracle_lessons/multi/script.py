# A script as the reader would run it: the whole file is the block.
import collections

counts = collections.Counter()
words = "the cat saw the other cat".split()
for word in words:
    counts[word] += 1


class Tally:
    kinds = 0

    def __init__(self, name):
        self.name = name
        Tally.kinds += 1

    def bump(self, by=1):
        total = Tally.kinds + by
        return total


def summarize(counter, top=2):
    best = counter.most_common(top)
    lines = [f"{w}={n}" for w, n in best]
    return ", ".join(lines)


tally = Tally("words")
squares = {n: n * n for n in range(4)}
try:
    missing = counts["dog"] + squares[9]
except KeyError as exc:
    missing = f"no key {exc}"
del words
if __name__ == "__main__":
    print(summarize(counts), tally.bump(), missing)
