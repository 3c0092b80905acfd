"""What a run's world could not decide, kept for a replay: the seed its randomness used
and the clock readings the program took, in order (a recording's ``world``,
docs/recordings.md).

A reading is ``[kind, microseconds]``: ``"wall"`` (since the epoch: ``time.time``,
``datetime.now``, …) or ``"mono"`` (``time.monotonic``, ``time.perf_counter``). At most
``MAX_READINGS`` are kept (a polling loop may read the clock millions of times): a replay
goes on from the last one kept, the virtual clock ticking from there. A replay feeds a
recording's readings back while they match the kind asked for; at the first that does not,
and after the last, the clock goes on virtually from what it read last.
"""

MAX_READINGS = 10_000


class Tape:
    def __init__(self, recorded=None):
        recorded = recorded or {}
        self.seed = None            # the seed the run's randomness used (chance.py)
        self.readings = []          # [[kind, µs], …] the run took, in order
        self.cut = False            # more readings were taken than kept
        self.replayed = bool(recorded)    # the world of a recording is given back
        self.replayed_seed = recorded.get("seed")
        self._replay = list(recorded.get("clock", ()))
        self._at = 0
        self.drawn_ids = []         # the uuid4 values the run drew (hex), in order
        # draw number → the hex given back instead (a replay's calibration, recording/
        # calibrate.py ``id_fix``; in memory only, never written)
        self._given_ids = {int(k): v for k, v in recorded.get("ids", ())}
        # each stand-in command's stdout + stderr, in order ("" for one the main thread ran:
        # its output is a tool's result, which a recording answers or shows as a divergence)
        self.outputs = []
        self._given_outputs = {int(k): v for k, v in recorded.get("outputs", ())}

    def command_output(self, code, out, err, background=False):
        """A stand-in command's (code, stdout, stderr): the calibration's, else as run.
        ``background``: run by a thread other than the main one (a background command,
        whose output reaches the model in a later notification, not as a tool's result)."""
        given = self._given_outputs.get(len(self.outputs)) if background else None
        if given is not None:
            code, out, err = 0, given if isinstance(out, str) else given.encode(), out[:0]
        self.outputs.append(_text(out) + _text(err) if background else "")
        return code, out, err

    def drawn_id(self, drawn):
        """The uuid4 (hex) the run gets for the one it drew: the calibration's, else it."""
        given = self._given_ids.get(len(self.drawn_ids), drawn)
        self.drawn_ids.append(given)
        return given

    @property
    def replaying(self):
        return self._at < len(self._replay)

    def recorded(self, kind):
        """The recording's next reading when it is of ``kind`` (µs), else None (and no
        more from the recording)."""
        if self._at >= len(self._replay):
            return None
        entry = self._replay[self._at]
        if entry[0] != kind:
            self._at = len(self._replay)
            return None
        self._at += 1
        return entry[1]

    def keep(self, kind, value):
        if len(self.readings) < MAX_READINGS:
            self.readings.append([kind, value])
        else:
            self.cut = True

    def to_dict(self):
        """The recording's ``world``."""
        found = {"seed": self.seed, "clock": self.readings}
        if self.cut:
            found["cut"] = True
        return found


def _text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else (value or "")
