"""What a run is, as one value: the block it runs, who answers it, the world it runs in,
the questions asked of it and how far it may go. ``recorder.record_request(request)``
runs one; ``recorder.record(lesson, block, scenario, **options)`` builds it from keywords
(``RunRequest.of``).
"""

from dataclasses import dataclass, field

# The step cap of every recording unless one is given: the page's (`loopstep serve
# --max-steps` changes it there) and `loopstep trace`'s. Low enough that a runaway loop
# ends in seconds with its partial run (the bundled lessons' runs take at most ~400).
DEFAULT_MAX_STEPS = 10_000
# a long run's first steps, shown in the page while the rest of it is recorded (a recording
# file's replay: docs/recordings.md, "A long run streams")
FIRST_STEPS = 200


@dataclass(frozen=True)
class Answers:
    """Who answers the run, instead of the setup's model function and the lesson's input.

    ``recording``: a recording (docs/recordings.md) answering the model calls, as a
    preset's ``recording`` does (the trace's ``replay`` says how far it went), its world
    values fed back too; ``live``: an object answering them as a real model
    (recording/live.py, ``loopstep record``); ``fork``: ``{"call": "model:K" | "tool:K",
    "value": JSON}``, that call answering the value (questions/forks.py; the trace's
    ``fork`` says whether it was reached); ``inputs``: the answers of ``input()`` instead
    of the lesson's ``[standins] input`` (a recording that holds ``input`` gives its own);
    ``tolerant``: a replay goes on past a difference (recording/replay.py)."""
    recording: dict | None = None
    live: object = None
    fork: dict | None = None
    inputs: tuple | None = None
    tolerant: bool = False


@dataclass(frozen=True)
class RunRequest:
    """One run of ``block`` of ``lesson`` under preset ``scenario``.

    ``roots``: lessons roots (None: the bundled ones). ``setup``: the setup text when
    ``scenario`` is "custom" (runtime/catalog/custom.py). ``answers``: see Answers.
    ``world``: a world.WorldSpec instead of the lesson's ``[world]`` (None: the
    lesson's, else the defaults). ``questions``: breakpoint conditions, hit counts,
    logpoints and watches to evaluate while recording (``{"breakpoints": [{"line",
    "condition", "hits", "log"}], "watches": [text]}``, questions.py); their answers are
    the trace's ``probes``. ``agent``: record the model and tool calls the lesson declares
    (its ``[agent]`` table). ``max_steps``: the step cap. ``backend``: "monitoring" or
    "settrace" (None: the best this interpreter has). ``schedule``: the schedule the
    run's threads follow (world/choices.py: its text form, ``"switch:3=alice"``, or a list
    of choices; "" the default schedule; None: the preset's ``schedule``, else the default).
    """
    lesson: str
    block: str
    scenario: str
    roots: object = None
    setup: str | None = None
    answers: Answers = field(default_factory=Answers)
    world: object = None
    questions: dict | None = None
    agent: bool = True
    max_steps: int = DEFAULT_MAX_STEPS
    backend: str | None = None
    schedule: object = None

    @classmethod
    def of(cls, lesson, block, scenario, *, roots=None, max_steps=DEFAULT_MAX_STEPS,
           backend=None, setup=None, questions=None, agent=True, fork=None, recording=None,
           live=None, inputs=None, tolerant=False, world=None, schedule=None):
        """The request ``record(...)``'s keywords describe."""
        answers = Answers(recording, live, fork, None if inputs is None else tuple(inputs),
                          tolerant)
        return cls(lesson, block, scenario, roots, setup, answers, world, questions, agent,
                   max_steps, backend, schedule)
