"""A container's VALUE kept between steps: made again only where what it shows changed.

The recorder looks at each local of a frame at each of its steps (steps.py ``_step``).
Encoding a container again at each step costs every item it shows (up to values.MAX_NODES),
however little of it changed: a history of 600 messages cost a step ~6 times what one
of 6 did, though the steps did not touch it. ``Kept`` holds one container's
VALUE and what it was made of (values.encode's ``walk``): each container the encoding
visited, with its length, the most items it could show and the items it showed; each
leaf not of an immutable scalar type (values.IMMUTABLE_SCALARS), with its text; the
folder's aliases. It is made at the second step a frame holds the container
(``kept_pair``: a container made anew at each step is only encoded), and ``update``
compares the value with it at each later step:

- a container showing other items (by identity) than before, or a set that holds objects
  (its order is their ``__lt__``'s), or other folder aliases: the value is encoded again;
- otherwise only lengths (items added or removed past the shown ones) and leaf texts
  (an object's repr) can differ: the nodes that hold them and the path to them are
  copied with the new ones, the rest shared with the previous VALUE, which stays as it
  was (earlier steps hold it);
- nothing differs: the previous VALUE itself.

The result is always the VALUE ``values.encode`` gives at this step. Until it encodes
again, the comparison runs none of the program's code (identity and length of built-in
containers; a set's items sorted only when they are immutable scalars), then each leaf's
repr once, in the encoding's order: the program sees the calls it sees when each step
encodes the value (a ``__repr__`` that changes a container it is shown in is seen at
the frame's next step). The cost of a step is the items the VALUE shows, whatever the
container's length, and a step that appends past them stores one new node.
"""

from itertools import chain
from operator import is_

from . import values
from .values import IMMUTABLE_SCALARS, encode, leaf

_ROOT = (-1, 0, -1)
_flat = chain.from_iterable


def _still(kind, item, cap, was):
    """Whether container ``item`` shows the items ``was`` (its first ``cap``; a dict's
    (key, value) pairs) now, by identity; False also for a set whose order only its items'
    own code can tell."""
    n = len(item)
    if (n if n < cap else cap) != len(was):
        return False
    if kind == "dict":
        return all(map(is_, _flat(item.items()), _flat(was)))
    if kind == "list" or kind == "tuple":
        return all(map(is_, item, was))
    for x in item:
        if type(x) not in IMMUTABLE_SCALARS:
            return False
    return all(map(is_, values._items(kind, item), was))


def kept_pair(old, value, folder):
    """The recorder's ``prev`` entry (value, VALUE, Kept) of container ``value``, which the
    frame also held at its previous step (``old``, its entry then): a new tuple at each
    step, as questions/code.py reads ``prev``."""
    if len(old) > 2:
        kept = old[2]
        return (value, kept.update(folder), kept)
    kept = Kept(value, folder)   # the same container a second step: keep it from now on
    return (value, kept.encoded, kept)


class Kept:
    """The VALUE of container ``value`` (``encoded``) and what it was made of: ``visits``
    and ``leaves`` as values.encode's ``walk`` gives them, and the same by group, so that
    a step compares them in a few passes of C loops (``_group``)."""

    __slots__ = ("value", "encoded", "aliases", "visits", "leaves", "locs", "objs", "sizes",
                 "lists", "lists_was", "dicts", "keys_was", "values_was", "others",
                 "all_shown")

    def __init__(self, value, folder):
        self.value = value
        self._make(folder)

    def _make(self, folder):
        self.aliases = folder.aliases if folder else ()
        self.visits, self.leaves, self.locs = [], [], None
        self.encoded = encode(self.value, folder, (self.visits, self.leaves))
        self._group()
        return self.encoded

    def _group(self):
        """``objs`` and ``sizes``: every container visited and its length. A list, tuple
        or dict shorter than the most items it could show showed them all: ``lists`` and
        ``dicts`` hold those, ``lists_was``, ``keys_was`` and ``values_was`` their items,
        keys and values end to end. ``others``: the visits of the rest that showed items (a
        longer one showed its first ones; a set)."""
        self.objs, self.sizes = [], []
        self.lists, self.lists_was, self.dicts = [], [], []
        self.keys_was, self.values_was = [], []
        self.others, self.all_shown = [], set()
        for k, (item, kind, size, cap, was, _, _, _) in enumerate(self.visits):
            self.objs.append(item)
            self.sizes.append(size)
            if not cap:
                continue
            if size < cap and kind != "set" and kind != "frozenset":
                self.all_shown.add(k)
                if kind == "dict":
                    self.dicts.append(item)
                    self.keys_was.extend([key for key, _ in was])
                    self.values_was.extend([value for _, value in was])
                else:
                    self.lists.append(item)
                    self.lists_was.extend(was)
            else:
                self.others.append(k)

    def update(self, folder):
        """The VALUE of the kept value now: ``encoded`` itself when nothing it shows changed."""
        if (folder.aliases if folder else ()) != self.aliases:
            return self._make(folder)
        sizes = list(map(len, self.objs))
        resized = ()
        if sizes != self.sizes:
            resized = [k for k, (a, b) in enumerate(zip(sizes, self.sizes)) if a != b]
            if not self.all_shown.isdisjoint(resized):   # it shows more or fewer items
                return self._make(folder)
        # the same lengths: the items of those that showed all of them, end to end
        if not (all(map(is_, _flat(self.lists), self.lists_was)) and
                all(map(is_, _flat(self.dicts), self.keys_was)) and
                all(map(is_, _flat(map(dict.values, self.dicts)), self.values_was))):
            return self._make(folder)
        visits = self.visits
        for k in self.others:
            item, kind, _, cap, was, _, _, _ = visits[k]
            if not _still(kind, item, cap, was):
                return self._make(folder)
        relabeled = None
        j = -1
        for item, text, _, _ in self.leaves:
            j += 1
            now = leaf(item, folder)
            if now != text:
                relabeled = [(j, now)] if relabeled is None else relabeled + [(j, now)]
        if resized or relabeled:
            self._copy(resized, relabeled or ())
            self.sizes = sizes
        return self.encoded

    def _where(self):
        """Where each visit's node and each leaf's text sits: (visit, position in its
        node, side of a dict pair or -1), or _ROOT."""
        at = {}
        for k, (_, kind, _, _, _, node, _, _) in enumerate(self.visits):
            at[id(node)] = (k, -1)
            if kind == "dict":
                for pos in range(2, len(node)):
                    at[id(node[pos])] = (k, pos)

        def loc(slot, index):
            found = at.get(id(slot))
            if found is None:
                return _ROOT
            k, pos = found
            return (k, index, -1) if pos < 0 else (k, pos, index)

        return ([loc(v[6], v[7]) for v in self.visits], [loc(x[2], x[3]) for x in self.leaves])

    def _copy(self, resized, relabeled):
        """Copy the nodes holding new lengths and texts, and the path to them; the
        previous VALUE stays as it was."""
        if self.locs is None:   # found while the visits' slots are the VALUE's own lists
            self.locs = self._where()
        locs, leaf_locs = self.locs
        visits = self.visits
        copied, pairs, root = {}, set(), [self.encoded]

        def fresh(k):
            node = copied.get(k)
            if node is None:
                node = copied[k] = visits[k][5][:]
                place(locs[k], node)
            return node

        def place(loc, value):
            k, pos, side = loc
            if k < 0:
                root[0] = value
                return
            node = fresh(k)
            if side < 0:
                node[pos] = value
                return
            if (k, pos) not in pairs:
                pairs.add((k, pos))
                node[pos] = node[pos][:]
            node[pos][side] = value

        for k in resized:
            fresh(k)[1] = len(visits[k][0])
        for j, text in relabeled:
            place(leaf_locs[j], text)
            item, _, slot, index = self.leaves[j]
            self.leaves[j] = (item, text, slot, index)
        for k, node in copied.items():
            item, kind, _, cap, was, _, slot, index = visits[k]
            visits[k] = (item, kind, len(item), cap, was, node, slot, index)
        self.encoded = root[0]
