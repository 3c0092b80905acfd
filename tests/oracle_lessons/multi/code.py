"""Several functions shown as one block: calls between them, through code not shown."""

LIMIT = 3


def inner(task, depth):
    notes = [f"{task}:{depth}"]
    if depth >= LIMIT:
        raise ValueError(f"too deep: {task}")
    for k in range(depth):
        notes.append(k * k)
    return notes


def relay(task, depth):
    # not displayed in the "outer" block: its frame is hidden between outer and inner
    result = inner(task, depth + 1)
    return len(result)


def outer(tasks):
    done = []
    for task in tasks:
        try:
            done.append(inner(task, 1))
            done.append(relay(task, len(done)))
        except ValueError as error:
            done.append(str(error))
    return done


def ping(n):
    if n <= 0:
        return ["ping"]
    return pong(n - 1) + [n]


def pong(n):
    trail = ping(n - 1) if n > 0 else []
    return trail + ["pong"]


def produce(items):
    for item in items:
        got = yield item * 2
        if got:
            print("sent", got)


def consume(items):
    total = 0
    source = produce(items)
    for value in source:
        total += value
        if total > 10:
            source.send("stop")
            break
    source.close()
    return total


def fail_late(values):
    kept = [v for v in values if v]
    return check(kept)


def check(kept):
    if len(kept) < 3:
        raise LookupError(f"only {len(kept)} kept")
    return kept


print("module loaded", LIMIT)
