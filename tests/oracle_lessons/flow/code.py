import contextlib


def full_try(values):
    log = []
    for v in values:
        try:
            result = 10 // v
        except ZeroDivisionError as error:
            log.append(f"error {error}")
        else:
            log.append(result)
        finally:
            log.append("done")
    return log


def finally_break(limit):
    attempts = 0
    while True:
        try:
            attempts += 1
            if attempts >= limit:
                break
        finally:
            print("attempt", attempts)
    return attempts


def finally_continue(items):
    kept = []
    for item in items:
        try:
            if item < 0:
                continue
            kept.append(item)
        finally:
            print("checked", item)
    return kept


def finally_return(flag):
    state = "start"
    try:
        if flag:
            state = "early"
            return state
        state = "late"
    finally:
        print("finally sees", state)
    return state


def retry(failures):
    tries = 0
    for attempt in range(5):
        try:
            tries += 1
            if attempt < failures:
                raise ConnectionError(f"try {attempt}")
            outcome = "ok"
            break
        except ConnectionError as problem:
            last = str(problem)
            continue
        finally:
            print("attempt", attempt, "finished")
    else:
        outcome = "failed"
    return outcome, tries


class Recorder:
    def __init__(self, name, swallow=False):
        self.name = name
        self.swallow = swallow

    def __enter__(self):
        print("enter", self.name)
        return self

    def __exit__(self, kind, value, tb):
        print("exit", self.name, kind.__name__ if kind else None)
        return self.swallow


def managed(fail):
    with Recorder("outer") as outer, Recorder("inner") as inner:
        status = "inside"
        if fail:
            raise KeyError("boom")
    return status, outer.name, inner.name


def suppressing(keys):
    found = {}
    for key in keys:
        with Recorder(key, swallow=True):
            found[key] = {"a": 1}[key]
        with contextlib.suppress(KeyError):
            found[key + "!"] = {}[key]
    return found


def chained(text):
    try:
        try:
            number = int(text)
        except ValueError as bad:
            raise LookupError("no number") from bad
    except LookupError as outer:
        cause = repr(outer.__cause__)
        context = outer.__context__ is outer.__cause__
        return cause, context
    return number


def implicit_chain():
    try:
        {}["missing"]
    except KeyError:
        try:
            1 / 0
        except ZeroDivisionError as second:
            inner = type(second.__context__).__name__
    return inner


def uncaught(items):
    total = 0
    for item in items:
        total += item
    average = total / (len(items) - 3)
    return average


def deep_uncaught(level):
    def dive(n):
        marker = n * 2
        if n == 0:
            raise ValueError(f"bottom reached at {level}")
        return dive(n - 1)
    return dive(level)


def reraise(value):
    try:
        check = int(value)
    except ValueError:
        print("cannot parse", value)
        raise
    return check


def grouped():
    try:
        raise ExceptionGroup("many", [ValueError(1), TypeError(2)])
    except* ValueError as values:
        seen_values = len(values.exceptions)
    except* TypeError as types:
        seen_types = len(types.exceptions)
    return "handled"


def asserting(x):
    try:
        assert x > 0, f"{x} is not positive"
        ok = True
    except AssertionError as failure:
        ok = str(failure)
    return ok


def loop_else(values, target):
    for index, value in enumerate(values):
        if value == target:
            found = index
            break
    else:
        found = -1
    count = 0
    while count < 3:
        count += 1
    else:
        count *= 10
    return found, count


def nested_finally():
    trail = []

    def level(n):
        try:
            if n == 0:
                raise IndexError("deep")
            level(n - 1)
        finally:
            trail.append(n)
    try:
        level(2)
    except IndexError as e:
        message = str(e)
    return trail, message
