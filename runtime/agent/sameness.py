"""The latest sent messages, held by identity: a check that they are still what was sent.

origins.py compares the latest ``EDIT_WINDOW`` messages a waiting call sent with copies of
their contents (``_frozen``) at every step, a walk in Python of every message (~6 µs a
message). ``Sameness`` is taken once such a comparison found them unchanged: every
container the copies describe (dicts, lists and tuples, ``FREEZE_DEPTH`` levels deep, and
the ``__dict__`` of an object), its length and its items, kept by identity. At the next
steps, the same containers with the same lengths holding the same objects mean the copies
still describe them, which a few C loops tell (~25 ns an item). Anything else, and the
step compares the copies as before.

A call's send moves the window on: when the previous window is still what it was taken of,
its pieces for the messages that stay carry over and only the new messages are walked
(``take``'s ``carried``), so a step after a call is as cheap as any other.

Not taken (``take`` gives None) when a message is not a dict or a container holds more
than ``FREEZE_ITEMS`` items (the copies describe its first ones only): those windows are
compared the slow way at every step.
"""

from itertools import chain, repeat
from operator import is_

_flat = chain.from_iterable


FIELDS = ("objs", "sizes", "owners", "attrs", "lists", "lists_was", "dicts", "keys_was",
          "values_was")


class Sameness:
    """``objs`` and ``sizes``: every container and its length; ``owners`` and ``attrs``: the
    objects compared by their ``__dict__``, and it; ``lists``, ``dicts``: the lists, tuples
    and dicts, their items, keys and values end to end (``lists_was`` …). ``pieces``: the
    same per message of the window (``piece``)."""

    __slots__ = ("messages", "pieces") + FIELDS

    def __init__(self, messages, pieces):
        self.messages = messages
        self.pieces = pieces
        for k, name in enumerate(FIELDS):
            setattr(self, name, list(_flat(p[k] for p in pieces)))

    def still(self, window):
        """Whether ``window`` (the sent messages in the window, now) is what this was
        taken of: the copies describe it, without comparing them."""
        return (len(window) == len(self.messages) and all(map(is_, window, self.messages))
                and list(map(len, self.objs)) == self.sizes
                and all(map(is_, map(getattr, self.owners, repeat("__dict__"), repeat(None)),
                            self.attrs))
                and all(map(is_, _flat(self.lists), self.lists_was))
                and all(map(is_, _flat(self.dicts), self.keys_was))
                and all(map(is_, _flat(map(dict.values, self.dicts)), self.values_was)))


def take(window, leaves, depth, most, carried=()):
    """A Sameness of ``window``: the ``carried`` pieces of its first messages (still what
    they were taken of), the rest walked now (``piece``); None if one cannot be."""
    pieces = list(carried)
    for message in window[len(pieces):]:
        made = piece(message, leaves, depth, most)
        if made is None:
            return None
        pieces.append(made)
    return Sameness(list(window), pieces)


def piece(message, leaves, depth, most):
    """What ``message`` is made of, walked as origins.py's ``_frozen`` walks it
    (``leaves``: its leaf types; ``depth`` levels, ``most`` items a container), as the
    lists of FIELDS; None when it is not a dict or holds a longer container."""
    if type(message) is not dict:
        return None
    objs, sizes, owners, attrs, lists, lists_was, dicts, keys_was, values_was = made = tuple(
        [] for _ in FIELDS)
    todo = [(message, depth)]
    while todo:
        value, depth = todo.pop()
        kind = type(value)
        if kind in leaves or depth == 0:   # compared as the item it is, by identity
            continue
        depth -= 1
        if kind is not dict and kind is not list and kind is not tuple:
            held = getattr(value, "__dict__", None)
            if type(held) is not dict:
                continue
            owners.append(value)
            attrs.append(held)
            value, kind = held, dict   # _frozen(attrs, depth): one level down already
            if depth == 0:
                continue
            depth -= 1
        if len(value) > most:
            return None
        objs.append(value)
        sizes.append(len(value))
        if kind is dict:
            dicts.append(value)
            keys_was.extend(value)
            items = list(value.values())
            values_was.extend(items)
        else:
            lists.append(value)
            lists_was.extend(value)
            items = value
        todo.extend(zip(items, repeat(depth)))
    return made
