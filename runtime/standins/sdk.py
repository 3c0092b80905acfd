"""Response objects shaped like the SDKs' (pydantic models): fields in declaration
order, ``Name(field=value, …)`` reprs, attribute access, ``model_dump()``.

A stand-in module (anthropic.py, openai.py) declares its classes with ``model``:
the class's ``__module__`` is the SDK's module name, so ``type(x)`` shows as the
SDK's. ``Ids`` hands out deterministic ids (``msg_001``, ``toolu_001`` …) per run.
"""

from ..world import schedule


class Model:
    """Base of the SDK-like objects: ``FIELDS`` in order, each with its default."""

    FIELDS = ()          # ((name, default), …)

    def __init__(self, **values):
        for name, default in self.FIELDS:
            setattr(self, name, values.pop(name, default))
        if values:
            raise TypeError(f"{type(self).__name__}() got an unexpected field "
                            f"{next(iter(values))!r}")

    def __repr__(self):
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name, _ in self.FIELDS)
        return f"{type(self).__name__}({shown})"

    def __eq__(self, other):
        return type(self) is type(other) and all(
            getattr(self, n) == getattr(other, n) for n, _ in self.FIELDS)

    __hash__ = None

    def model_dump(self, **_options):
        return {name: _dump(getattr(self, name)) for name, _ in self.FIELDS}

    to_dict = model_dump


def known(cls, values):
    """``values`` without the fields ``cls`` does not declare: a provider's JSON (a
    recording's answer) may carry fields newer than the stand-in's."""
    names = {name for name, _ in cls.FIELDS}
    return {key: value for key, value in values.items() if key in names}


def _dump(value):
    if isinstance(value, Model):
        return value.model_dump()
    if isinstance(value, list):
        return [_dump(item) for item in value]
    if isinstance(value, dict):
        return {key: _dump(item) for key, item in value.items()}
    return value


def model(module, name, fields):
    """A Model subclass named ``name`` in module ``module`` with ``fields`` (name, default)."""
    return type(name, (Model,), {"FIELDS": tuple(fields), "__module__": module,
                                 "__qualname__": name})


class Ids:
    """Deterministic ids of one run: ``next("msg")`` → ``msg_001``, ``msg_002`` …"""

    def __init__(self):
        self.counts = {}

    def next(self, prefix):
        self.counts[prefix] = self.counts.get(prefix, 0) + 1
        return f"{prefix}_{self.counts[prefix]:03d}"


def field(value, name, default=None):
    """``value[name]`` of a dict, ``value.name`` of anything else."""
    if isinstance(value, dict):
        return value.get(name, default)
    return getattr(value, name, default)


class Client:
    """A sync client's ``with`` use and ``close()``, as the SDKs have them."""

    def close(self):
        return None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class AsyncClient:
    """An async client's ``async with`` use and ``await client.close()``."""

    async def close(self):
        return None

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False


def reply_function(namespace, name):
    """The setup's reply (or shell) function, looked up when it is first needed."""
    function = namespace.get(name)
    if not callable(function):
        raise RuntimeError(f"the stand-in needs the setup function {name}(), "
                           "which the setup did not define")
    return function


_ERROR_TREE = (("APIError", "Exception", None), ("APIConnectionError", "APIError", None),
               ("APITimeoutError", "APIConnectionError", None),
               ("APIStatusError", "APIError", 500), ("BadRequestError", "APIStatusError", 400),
               ("AuthenticationError", "APIStatusError", 401),
               ("RateLimitError", "APIStatusError", 429),
               ("InternalServerError", "APIStatusError", 500))


def _error_init(self, message="", *args, **options):
    Exception.__init__(self, message, *args)
    self.message = message
    self.body = options.get("body")


def errors(module):
    """The SDK's exception classes (``except anthropic.RateLimitError``), for ``module``;
    a reply function raises one to play a failing request."""
    made = {"Exception": Exception}
    for name, base, status in _ERROR_TREE:
        attrs = {"__module__": module, "__qualname__": name}
        if name == "APIError":
            attrs["__init__"] = _error_init
        if status is not None:
            attrs["status_code"] = status
        made[name] = type(name, (made[base],), attrs)
    del made["Exception"]
    return made


def model_answer(context, provider, frame, request):
    """``(JSON,)`` or ``(provider JSON, "provider")`` answering the stand-in client's call
    running in ``frame`` — from the run's fork (its call; runtime/questions/forks.py) or
    its ``answers`` (a recording's replay or the live model; runtime/recording) — or None:
    the setup's model function answers. Once the run has threads, the call takes virtual
    time first (world/schedule.py: other threads run meanwhile)."""
    begin = getattr(getattr(context, "answers", None), "begin", None)
    if begin is not None:   # when each call began (threads: a live recording, a replay)
        begin()
    schedule.pause("model")
    held = getattr(getattr(context, "answers", None), "held", None)
    if held is not None:   # a thread's call the recording never answered waits for the end
        held(request)
    fork = getattr(context, "fork", None)
    forked = fork.answer(frame) if fork is not None else None
    answers = getattr(context, "answers", None)
    if answers is not None:
        name = getattr(context, "model", None)
        has_reply = bool(name) and callable(context.namespace.get(name))
        value = answers.answer(provider, request, forked is not None, has_reply)
        if value is not None:
            return (value, "provider")   # a provider's JSON: built leniently
    return forked
