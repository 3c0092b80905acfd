# A small agent: outer hands each task to inner.
BUDGET = 2
log = []


def inner(task, depth):
    note = f"{task}@{depth}"
    log.append(note)
    return note.upper()


def keep(items):
    return [item for item in items if item][:BUDGET]


def outer(tasks):
    results = []
    for task in keep(tasks):
        answer = inner(task, len(results))
        results.append(answer)
    return results


for name in ["a", "b"]:
    log.append(name)
print("loaded", len(log))
