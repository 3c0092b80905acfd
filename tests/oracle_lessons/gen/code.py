def spend(script, budget):
    spent = 0
    for turn, cost in script:
        spent += cost
        if spent > budget:
            return spent
        yield turn


def echo():
    received = []
    while True:
        value = yield len(received)
        if value is None:
            break
        received.append(value)
    return received


def resilient():
    errors = 0
    while errors < 3:
        try:
            yield errors
        except ValueError as problem:
            errors += 1
            note = str(problem)
    return "gave up"


def closed_early():
    opened = True
    try:
        for n in range(10):
            yield n
    finally:
        opened = False
        print("closed, opened =", opened)


def delegate(limit):
    def inner(k):
        for j in range(k):
            got = yield j
            if got:
                return got
        return "inner done"
    first = yield from inner(limit)
    second = yield from inner(2)
    return first, second


def abandoned(words):
    count = 0
    for word in words:
        count += 1
        yield word.upper()
    print("never reached")


def squares(xs):
    total = sum(x * x for x in xs if x % 2)
    evens = list(x for x in xs if not x % 2)
    return total, evens


def comprehensions(words):
    lengths = [len(w) for w in words]
    index = {w: i for i, w in enumerate(words)}
    letters = {c for w in words for c in w}
    pairs = [(a, b) for a in range(3) for b in range(a)]
    nested = [[i * j for j in range(3)] for i in range(2)]
    return lengths, index, sorted(letters), pairs, nested


def pipeline(lines):
    def numbers(items):
        for item in items:
            if item.strip():
                yield int(item)

    def doubled(values):
        for v in values:
            yield v * 2
    result = list(doubled(numbers(lines)))
    return result


def windowed(seq, size):
    window = []
    for item in seq:
        window.append(item)
        if len(window) == size:
            yield tuple(window)
            window.pop(0)


def counter_gen(start):
    n = start
    while True:
        step = yield n
        n += step if step else 1


def take_first(source):
    it = iter(source)
    head = next(it)
    rest = list(itertools.islice(it, 2))
    try:
        while True:
            last = next(it)
    except StopIteration:
        last = None
    return head, rest, last


def gen_raises(n):
    for i in range(n):
        if i == 2:
            raise RuntimeError(f"bad item {i}")
        yield i
