"""A schedule given to a run: the choices the scheduler (schedule.py) follows instead of its
default rule, in one text form the CLI, the lessons' presets, the trace header and the page
(its URL's ``sched=``) all use (docs/design.md, "Threads", "Schedules you can change").

A choice is one of

- ``switch:K=NAME``: at the K-th switch point of the run (counted from 1 over every point
  where the scheduler chose the next thread to run), thread NAME runs next; NAME must be
  runnable there;
- ``model:K=NAME``: thread NAME has finished before model call K (counted from 1 over the
  run's calls of a stand-in client, in every thread): the thread making call K waits
  for it first.

The text form joins choices with ``,``, ``switch`` choices first, each kind by K
(``switch:3=alice,switch:7=MainThread,model:2=Thread-1``); in a NAME, ``%`` is written
``%25`` and ``,`` ``%2C``. The empty text is the default schedule. Stdlib only.
"""

import re
from dataclasses import dataclass

KINDS = ("switch", "model")
_ITEM = re.compile(r"(switch|model):([1-9][0-9]{0,8})=(.+)", re.S)
EXAMPLE = '"switch:K=NAME" (at switch point K thread NAME runs next) or "model:K=NAME" ' \
          '(thread NAME finishes before model call K)'


class Unfollowable(BaseException):
    """A choice the run could not follow (raised in the main thread; the run stops with
    status "error"). A BaseException, so a program's ``except Exception`` lets it through."""


@dataclass(frozen=True, order=True)
class Choice:
    kind_order: int
    number: int
    name: str

    @property
    def kind(self):
        return KINDS[self.kind_order]

    def text(self):
        return f"{self.kind}:{self.number}={self.name.replace('%', '%25').replace(',', '%2C')}"


def item(text):
    """The Choice one item names (``switch:3=alice``); ValueError saying what is expected."""
    found = _ITEM.fullmatch(text.strip()) if isinstance(text, str) else None
    if found is None:
        raise ValueError(f"schedule choice {text!r}: expected {EXAMPLE}, K a number from 1")
    name = found[3].replace("%2C", ",").replace("%2c", ",").replace("%25", "%")
    return Choice(KINDS.index(found[1]), int(found[2]), name)


def valid_item(text):
    try:
        parse(text)
    except ValueError:
        return False
    return True


def parse(value):
    """The choices of ``value``: a text form, a list of items (each may itself be a text
    form) or None (the default schedule: no choice); sorted, checked. ValueError: a bad
    item, or two ``switch`` choices for the same point."""
    if value is None:
        return ()
    texts = [value] if isinstance(value, str) else list(value)
    chosen = sorted({item(part) for text in texts for part in text.split(",") if part.strip()})
    seen = {}
    for choice in chosen:
        if choice.kind == "switch":
            if choice.number in seen:
                raise ValueError(f"schedule: two threads chosen at switch point "
                                 f"{choice.number} ({seen[choice.number]}, {choice.name})")
            seen[choice.number] = choice.name
    return tuple(chosen)


def text(choices):
    """The text form of ``choices`` (parse's result)."""
    return ",".join(choice.text() for choice in choices)


def canonical(value):
    """The text form of ``value`` (anything ``parse`` takes)."""
    return text(parse(value))


class Plan:
    """The choices of one run, as its scheduler follows them."""

    def __init__(self, choices):
        self.choices = tuple(choices)
        self.switch = {c.number: c.name for c in self.choices if c.kind == "switch"}
        self.model = {}
        for c in self.choices:
            if c.kind == "model":
                self.model.setdefault(c.number, []).append(c.name)
        self.used = set()
        self.calls = 0       # model calls so far
        self.error = None    # the message of the choice the run could not follow

    def unreached(self):
        """The choices the run never came to (its text forms)."""
        return [c.text() for c in self.choices if c not in self.used]

    def mark(self, kind, number):
        self.used.update(c for c in self.choices if c.kind == kind and c.number == number)

    # -- followed by the scheduler (schedule.py) ---------------------------------------

    def choose(self, scheduler):
        """The thread that runs at this switch point (the first in ``scheduler.ready``, or
        the chosen one), kept in ``scheduler.points``; the main thread with the error when
        the choice cannot be followed."""
        ready = scheduler.ready
        number = len(scheduler.points) + 1
        wanted = self.switch.get(number)
        chosen = ready[0]
        if wanted is not None:
            self.mark("switch", number)
            found = [r for r in ready if r.name == wanted]
            if not found:
                runnable = ", ".join(r.name for r in ready)
                return self.refuse(scheduler, f"schedule switch:{number}={wanted}: thread "
                                   f"{wanted} cannot run at switch point {number} "
                                   f"({_where(scheduler, wanted)}); runnable there: {runnable}")
            chosen = found[0]
        step = len(scheduler.builder.cols) if scheduler.builder is not None else 0
        scheduler.points.append([step, chosen.index, [r.index for r in ready]])
        ready.remove(chosen)
        return chosen

    def refuse(self, scheduler, message):
        """The schedule cannot be followed: the main thread gets ``Unfollowable`` and runs
        next; the run goes on without choices while it unwinds."""
        self.error = message
        self.switch, self.model = {}, {}
        main = scheduler.main
        main.error = Unfollowable(message)
        if main in scheduler.ready:
            scheduler.ready.remove(main)
        main.state, main.until = "runnable", None
        scheduler._mark(main)
        return main

    def model_call(self, scheduler, me):
        """Model call number K (counted over the run) in thread ``me``: it waits first for
        each thread the schedule wants finished before it."""
        self.calls += 1
        number = self.calls
        for name in self.model.get(number, ()):
            self.mark("model", number)
            target = next((r for r in scheduler.records if r.name == name), None)
            if target is None or target is me:
                problem = "it makes that call" if target is me else _where(scheduler, name)
                main = self.refuse(scheduler, f"schedule model:{number}={name}: thread {name} "
                                   f"cannot finish before model call {number} ({problem})")
                if me is main:
                    main.error, main.state = None, "running"
                    scheduler._mark(main)
                    raise Unfollowable(self.error)
                me.state, me.on = "blocked", "schedule"
                scheduler._switch(me, main)   # ended with the run
            while target.state != "finished":
                target.joiners.append(me)
                scheduler.block(me, f"{name} to finish before model call {number} (schedule)")

    def header(self, scheduler):
        """The trace header's ``schedule``: its text (empty: the default), each switch
        point ``[STEP, CHOSEN, [RUNNABLE…]]`` (thread indices; STEP: the first step after
        it), the choices never reached and the one that could not be followed."""
        result = {"text": text(self.choices), "points": scheduler.points}
        if self.unreached():
            result["unreached"] = self.unreached()
        if self.error:
            result["error"] = self.error
        return result


def _where(scheduler, name):
    """Where thread ``name`` is, for a choice the run cannot follow."""
    for record in scheduler.records:
        if record.name == name:
            return f"it is {record.state}" + (f": {record.on}" if record.on else "")
    names = ", ".join(r.name for r in scheduler.records)
    return f"no thread of that name has started; the run's threads: {names}"
