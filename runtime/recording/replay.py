"""A run's model calls answered from a recording, in order (docs/recordings.md, "Replay").

Each request the program sends is compared with the recorded one in the normal form
(normal.py: first as canonical JSON texts, at the speed of the C encoder; the normal forms
themselves only when those differ); at the first difference the run stops (``Divergence``), as it does when the
program makes more calls than were recorded (a divergence at call N+1). Both are
BaseExceptions, so the program's own ``except Exception`` cannot swallow them: the
recorder ends the run with status ``error``. After a fork's call (runtime/questions/
forks.py) the recording no longer holds the answers: the setup's model function gives
them when the lesson has one, else the run stops (``NoAnswer``).

The run's folder reads as the recording's ``cwd``: a request's text shows the real folder
as ``cwd`` (the recorder's values.Folder), and a recorded answer's ``cwd`` is handed to
the program as the real folder.
"""

from .normal import canonical, first_difference, normal, quick_text, request_body, same

BEYOND = "(beyond the recording)"


class Divergence(BaseException):
    """The program sent a request the recording does not hold at call ``call``."""

    def __init__(self, call, path, recorded, sent):
        super().__init__(f"divergence at model call {call}: {path}")
        self.call, self.path, self.recorded, self.sent = call, path, recorded, sent

    def to_dict(self):
        return {"call": self.call, "path": self.path, "recorded": self.recorded,
                "sent": self.sent}


class NoAnswer(BaseException):
    """A model call after a fork's call in a lesson whose setup answers none."""

    def __init__(self, call):
        super().__init__(f"no answer for model call {call}: forked past the recording")
        self.call = call


def answerable(spec):
    """Whether a recording can answer the model calls of lesson ``spec``'s runs: they go
    through a stand-in client ([standins] ``model``)."""
    return bool(spec.standins and spec.standins.model)


def swap_text(value, old, new):
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, list):
        return [swap_text(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: swap_text(item, old, new) for key, item in value.items()}
    return value


class Replay:
    """The answers of one run. ``text``: how the run shows a text (its folder as the
    recording's cwd); ``real``: the run's real folder (None: no folder)."""

    def __init__(self, recording, text=str, real=None):
        self.recording = recording
        self.calls = recording["calls"]
        self.text = text
        self.real = real
        self.made = 0
        self.forked = False
        self.stopped = None       # the Divergence or NoAnswer that ended the run

    def answer(self, provider, request, forked=False, has_reply=False):
        """The recorded response (provider JSON) of the next call; None when the caller
        answers it itself (the fork's call, or after it the setup's model function)."""
        self.made += 1
        call = self.made
        if self.forked:
            if has_reply:
                return None
            raise self._stop(NoAnswer(call))
        if call > len(self.calls):
            raise self._stop(Divergence(call, BEYOND, f"{len(self.calls)} model calls",
                                        "one more call"))
        if provider != self.recording["provider"]:
            raise self._stop(Divergence(call, "provider", self.recording["provider"],
                                        provider))
        recorded = self.calls[call - 1]
        if quick_text(request, self.text) != canonical(recorded["request"]):
            old, new = normal(recorded["request"]), request_body(request, self.text)
            found = None if same(old, new) else first_difference(old, new)
            if found is not None:
                raise self._stop(Divergence(call, *found))
        if forked:
            self.forked = True
            return None
        response = recorded["response"]
        cwd = self.recording["cwd"]
        if self.real and self.real != cwd:
            response = swap_text(response, cwd, self.real)
        return response

    def _stop(self, failure):
        self.stopped = failure
        return failure

    def summary(self):
        """The trace's ``replay`` key."""
        recording = self.recording
        made = min(self.made, len(self.calls))
        note = None
        if self.stopped is None and not self.forked and made < len(self.calls):
            note = f"the run made {made} of the {len(self.calls)} recorded model calls"
        return {"provider": recording["provider"], "model": recording["model"],
                "calls": len(self.calls), "made": self.made,
                "imported_from": recording.get("imported_from"),
                "made_for": recording["made_for"],
                "divergence": self.stopped.to_dict()
                if isinstance(self.stopped, Divergence) else None,
                "note": note}
