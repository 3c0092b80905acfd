"""Names the interpreter binds by itself: never shown as the author's variables.

A class body's namespace gets ``__module__`` and ``__qualname__`` (3.13+ also
``__firstlineno__`` and ``__static_attributes__``; ``__classcell__`` and
``__classdictcell__`` when a method uses ``super()`` or ``__class__``), such a
method sees the class as the free variable ``__class__``, and a generator
expression's frame holds its iterator as ``.0``. A module's own frame (a whole-file
block) has the module's globals as its locals: there the names ``__x__``
(``__name__``, ``__builtins__``, ``__doc__``, …) are the interpreter's too. The
recorder leaves them out of every step, in CPython and in Pyodide alike.
"""

HIDDEN = frozenset({"__module__", "__qualname__", "__firstlineno__", "__static_attributes__",
                    "__classcell__", "__classdictcell__", "__class__"})


def hidden(name):
    """Whether a local named ``name`` is the interpreter's, not the author's."""
    return name in HIDDEN or name.startswith(".")


def may_hide(code):
    """Whether frames of ``code`` can bind a hidden name (class bodies, generator
    expressions): only their locals need filtering."""
    return any(hidden(name) for name in
               code.co_varnames + code.co_names + code.co_cellvars + code.co_freevars)


def hidden_in_module(name):
    """Whether a global named ``name`` is left out of a module frame's locals."""
    return hidden(name) or (name.startswith("__") and name.endswith("__"))


def hider(code):
    """The rule for the names frames of ``code`` leave out, or None when none can be."""
    if code.co_name == "<module>":
        return hidden_in_module
    return hidden if may_hide(code) else None
