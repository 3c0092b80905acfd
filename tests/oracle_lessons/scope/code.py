import functools


def make_counter(step):
    count = 0

    def bump():
        nonlocal count
        count += step
        return count
    first = bump()
    second = bump()
    return first, second, count


def add_total(amount):
    global TOTAL
    before = TOTAL
    TOTAL += amount
    return before, TOTAL


def with_lambdas(items):
    key = lambda pair: (-pair[1], pair[0])
    ordered = sorted(items, key=key)
    names = list(map(lambda p: p[0].title(), ordered))
    pick = (lambda n: names[:n])(2)
    return pick


def decorated(n):
    calls = []

    def logged(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            calls.append(fn.__name__)
            result = fn(*args, **kwargs)
            return result
        return wrapper

    @logged
    def square(x):
        return x * x
    values = [square(i) for i in range(n)]
    return values, calls


@functools.lru_cache(maxsize=None)
def fib(n):
    if n < 2:
        return n
    left = fib(n - 1)
    right = fib(n - 2)
    return left + right


def factorial(n):
    if n <= 1:
        return 1
    smaller = factorial(n - 1)
    return n * smaller


def is_even(n):
    def odd(k):
        return False if k == 0 else even(k - 1)

    def even(k):
        return True if k == 0 else odd(k - 1)
    answer = even(n)
    return answer


def flexible(first, second=2, *rest, scale=1, **options):
    total = (first + second + sum(rest)) * scale
    keys = sorted(options)
    return total, keys


def 计算(数量, 单价=3):
    总价 = 数量 * 单价
    折扣 = 总价 // 10
    return 总价 - 折扣


def forget(values):
    temp = sum(values)
    double = temp * 2
    del temp
    temp = "again"
    del double
    return temp


def walrus(data):
    seen = []
    while (n := len(data)) > 2:
        seen.append(data.pop())
    kept = [y for x in data if (y := x * 10) > 5]
    return n, seen, kept, y


def matcher(commands):
    results = []
    for command in commands:
        match command:
            case {"action": "move", "to": (x, y)}:
                results.append(f"move {x},{y}")
            case ["say", *words] if words:
                results.append(" ".join(words))
            case str() as name:
                results.append(name.upper())
            case _:
                results.append("unknown")
    return results


def shadow(x):
    inner_calls = 0

    def outer(x):
        def inner(y):
            return x + y
        return inner(x * 2)
    for i in range(2):
        inner_calls += outer(i + x)
    return inner_calls


def keyword_only(*, name, greeting="hi"):
    message = f"{greeting}, {name}"
    return message
