# A whole file whose last statement raises: the program ends with the error.
steps = []
for n in range(3):
    steps.append(n)


def half(n):
    return n / (n - 2)


print([half(n) for n in steps if n != 1])
