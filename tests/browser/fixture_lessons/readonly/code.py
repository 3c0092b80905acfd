def take(items):
    it = iter(items)
    first = next(it)
    rest = list(it)
    return first, rest
