"""Bounded, JSON-safe encoding of Python values for the trace (the VALUE spec).

A VALUE is a JSON string (a leaf, as its repr), ``["str", repr_of_prefix, length]``
for a long string, or ``[kind, length, item, ...]`` for dict/list/tuple/set/frozenset, where
a dict item is ``[key, value]``. Encoding is iterative (no recursion, whatever
the nesting), never calls ``__repr__`` of the containers it knows, and is bounded
by the item, depth, string and node limits below.
"""

from collections import deque
import re
import types

MAX_ITEMS = 50      # items shown per container
MAX_DEPTH = 4       # containers nested deeper than this show no items
MAX_CHARS = 200     # characters kept of a string or leaf repr
MAX_NODES = 1000    # items encoded per value in total (breadth first)

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_FUNCTIONS = (types.FunctionType, types.BuiltinFunctionType, types.MethodType,
              types.BuiltinMethodType, types.MethodWrapperType,
              types.WrapperDescriptorType, types.MethodDescriptorType)
_CYCLE_MARK = {"dict": "{...}", "list": "[...]", "tuple": "(...)", "set": "{...}",
               "frozenset": "frozenset({...})"}

class Folder:
    """The run's folder as the trace shows it: while a CPython run has one
    (runtime/standins/workspace.py), its real path is shown as the stand-in's path wherever
    the trace shows text (values, output, messages, errors). One per run: the recorder makes
    it and hands it to each part that shows text; false while there is nothing to replace."""

    __slots__ = ("aliases",)

    def __init__(self):
        self.aliases = ()

    def show(self, real, shown):
        self.aliases = ((real, shown),)

    def forget(self):
        self.aliases = ()

    def __bool__(self):
        return bool(self.aliases)

    def text(self, text):
        for real, shown in self.aliases:
            text = text.replace(real, shown)
        return text


def presented(text, folder):
    """``text`` as the trace shows it in a run whose folder is ``folder`` (or None)."""
    return folder.text(text) if folder else text


# Types whose values never change in place: equal identity means equal encoding.
IMMUTABLE_SCALARS = frozenset({int, float, complex, bool, str, bytes, type(None)})


def _cut(text):
    if len(text) <= MAX_CHARS:
        return text
    return text[:MAX_CHARS - 1] + "…"


_KINDS = {dict: "dict", list: "list", tuple: "tuple", set: "set", frozenset: "frozenset"}
CONTAINERS = frozenset(_KINDS)   # the types encoded as containers (exactly these, no subclass)


def _kind(value):
    """The container kind of a built-in container; subclasses (namedtuple, Counter,
    OrderedDict, defaultdict, …) are leaves, shown by their own repr."""
    return _KINDS.get(type(value))


def leaf(value, folder=None):
    """The leaf text of a value that is not a known container (``folder``: the run's
    Folder, if any)."""
    if isinstance(value, str):
        if folder:
            value = folder.text(value)
        text = str.__repr__(value) if len(value) <= MAX_CHARS else None
        if text is not None:
            return text
        return ["str", str.__repr__(value[:MAX_CHARS]), len(value)]
    if value is None or isinstance(value, (bool, float, complex)):
        return repr(value)
    if isinstance(value, int):
        try:
            return _cut(int.__repr__(value))
        except ValueError:
            return f"<int of {value.bit_length()} bits>"
    if isinstance(value, _FUNCTIONS):
        return f"<function {getattr(value, '__name__', '?')}>"
    if isinstance(value, types.ModuleType):
        return f"<module '{value.__name__}'>"
    if isinstance(value, type):
        if type(value).__repr__ is type.__repr__:
            return f"<class '{_class_name(value)}'>"
    cls = type(value)
    if cls.__repr__ is object.__repr__:
        return f"<{cls.__qualname__} object>"
    try:
        text = repr(value)
    except BaseException:  # a failing user __repr__ must not break the trace
        return f"<{cls.__qualname__} object>"
    if not isinstance(text, str):
        return f"<{cls.__qualname__} object>"
    if folder:
        text = folder.text(text)
    return _cut(_ADDRESS.sub("", text))


def _class_name(cls):
    module = getattr(cls, "__module__", None)
    if module in (None, "builtins"):
        return cls.__qualname__
    return f"{module}.{cls.__qualname__}"


def _items(kind, value):
    """The items a container shows, in a deterministic order."""
    if kind == "dict":
        source = dict.items(value)
    elif kind in ("set", "frozenset"):
        try:
            source = sorted(value)
        except Exception:
            source = sorted(value, key=lambda item: (type(item).__qualname__, str(leaf(item))))
    else:
        source = value
    shown = []
    for item in source:
        if len(shown) == MAX_ITEMS:
            break
        shown.append(item)
    return shown


_SMALL_INT = 10 ** 18   # ints inside ±this are encoded by int.__repr__ directly


def encode_fast(value, folder=None):
    """``encode`` with a shortcut for the scalars most steps change."""
    t = type(value)
    if t is int and -_SMALL_INT < value < _SMALL_INT:
        return int.__repr__(value)
    if t is str and len(value) <= MAX_CHARS and not folder:
        return str.__repr__(value)
    return encode(value, folder)


def encode(value, folder=None, walk=None):
    """Encode ``value`` as a VALUE (see the module docstring); ``folder``: the run's
    Folder, if any. ``walk``: two lists that receive what the VALUE was made of, in the
    order it was made (kept.py): each container as (container, kind, length, the most
    items it could show (0: none), the items it showed, its node, slot, index), each leaf
    not of an immutable scalar type as (leaf, text, slot, index)."""
    root = [None]
    budget = MAX_NODES
    queue = deque([(value, 1, root, 0, ())])
    while queue:
        item, depth, slot, index, ancestors = queue.popleft()
        kind = _kind(item)
        if kind is None:
            text = slot[index] = leaf(item, folder)
            if walk is not None and type(item) not in IMMUTABLE_SCALARS:
                walk[1].append((item, text, slot, index))
            continue
        ident = id(item)
        if ident in ancestors:
            slot[index] = _CYCLE_MARK[kind]
            continue
        size = len(item)
        node = [kind, size]
        slot[index] = node
        if depth > MAX_DEPTH or not size or budget <= 0:
            if walk is not None:
                walk[0].append((item, kind, size, 0 if depth > MAX_DEPTH or budget <= 0
                                else min(MAX_ITEMS, budget), (), node, slot, index))
            continue
        shown = _items(kind, item)[:budget]
        if walk is not None:
            walk[0].append((item, kind, size, min(MAX_ITEMS, budget), shown, node, slot, index))
        budget -= len(shown)
        inner = ancestors + (ident,)
        for child in shown:
            if kind == "dict":
                pair = [None, None]
                node.append(pair)
                queue.append((child[0], depth + 1, pair, 0, inner))
                queue.append((child[1], depth + 1, pair, 1, inner))
            else:
                node.append(None)
                queue.append((child, depth + 1, node, len(node) - 1, inner))
    return root[0]
