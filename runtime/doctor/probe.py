"""One run of the doctor, in a fresh process: ``python -m loopstep.runtime.doctor.probe``
reads its job (JSON) on stdin and prints ``{"trace": …, "files": […]}``.

The job: ``lesson``, ``block``, ``scenario``, ``roots`` and ``change``: None (the run as
the lesson says), "clock" (the clock starts a day and 1.5 s later), "ids" (every ``uuid``
another), "randomness" (``random`` seeded otherwise, ``os.urandom``/``secrets`` other
bytes). The string-hash seed and the environment are changed by the process that starts
this one (doctor.py). ``files``: what the program opened or listed outside its run folder
and Python's own, each ``{"path", "file", "line", "function"}`` (at most MAX_FILES).
"""

import dataclasses
import json
import os
import sys
import sysconfig
import uuid

MAX_FILES = 50
CLOCK_SHIFT = 86_400 + 1.5   # seconds the changed clock starts later
_EVENTS = ("open", "os.listdir", "os.scandir")


class Files:
    """An audit hook noting the paths the program's own code opens or lists, outside the
    run's folder and Python's installation (the hook stays: this process runs once)."""

    def __init__(self, program_files):
        self.program = set(program_files)
        self.found = []
        self.seen = set()
        self.active = False
        self.folder = None
        ours = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib",
                                                        "platlib")}
        ours |= {sys.prefix, sys.base_prefix, sys.exec_prefix,
                 os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}
        self.ours = tuple(os.path.realpath(p) + os.sep for p in ours if p)
        sys.addaudithook(self.hook)

    def hook(self, event, args):
        if not self.active or event not in _EVENTS or len(self.found) >= MAX_FILES:
            return
        path = args[0] if args else None
        if path is None or isinstance(path, int):
            return
        try:
            path = os.path.realpath(os.fsdecode(path))
        except (TypeError, ValueError):
            return
        inside = self.folder and (path + os.sep).startswith(self.folder + os.sep)
        if inside or path.startswith(self.ours) or path == "/dev/null":
            return
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename not in self.program:
            frame = frame.f_back
        if frame is None:
            return   # loopstep's own or Python's, not the program's
        where = (path, frame.f_code.co_filename, frame.f_lineno)
        if where not in self.seen:
            self.seen.add(where)
            self.found.append({"path": path, "file": frame.f_code.co_filename,
                               "line": frame.f_lineno, "function": frame.f_code.co_name})


def _change_ids():
    from ..world import chance
    plain4, plain1 = chance.Chance.uuid4, chance.Chance.uuid1
    # every bit but the version's and the variant's: another id of the same version
    flip = ((1 << 128) - 1) & ~(0xF << 76) & ~(0x3 << 62)

    def uuid4(self):
        return uuid.UUID(int=plain4(self).int ^ flip)

    def uuid1(self, node=None, clock_seq=None):
        return uuid.UUID(int=plain1(self, node, clock_seq).int ^ flip)
    chance.Chance.uuid4, chance.Chance.uuid1 = uuid4, uuid1


def _change_randomness():
    import random
    from ..world import chance
    plain_enter, plain_urandom = chance.Chance.enter, chance.Chance.urandom

    def enter(self):
        plain_enter(self)
        random.seed(7919 + (self.tape.seed or 0))

    def urandom(self, size):
        return bytes(b ^ 0xA5 for b in plain_urandom(self, size))

    def uuid4(self):   # ids keep their own bytes: that source is "ids"
        return uuid.UUID(bytes=plain_urandom(self, 16), version=4)
    chance.Chance.enter, chance.Chance.urandom, chance.Chance.uuid4 = enter, urandom, uuid4


def run(job):
    from ..catalog import custom
    from ..catalog.lessons import load_lesson
    from ..recorder import record
    from ..world import WorldSpec
    spec = load_lesson(job["lesson"], job.get("roots"))
    world = spec.world or WorldSpec()
    change = job.get("change")
    if change == "clock":
        world = dataclasses.replace(world, start=world.start + CLOCK_SHIFT)
    elif change == "ids":
        _change_ids()
    elif change == "randomness":
        _change_randomness()
    elif change is not None:
        raise ValueError(f"unknown change {change!r}")
    programs = custom.programs(spec, job["block"], job["scenario"], None)
    files = Files([p.path for p in programs])
    from ..standins import workspace
    plain_enter = workspace.Workspace.enter

    def enter(self):   # the audit starts with the run, in its folder
        files.folder, files.active = os.path.realpath(self.path), True
        plain_enter(self)
    workspace.Workspace.enter = enter
    files.active = spec.standins is None
    try:
        trace = record(job["lesson"], job["block"], job["scenario"], roots=job.get("roots"),
                       world=world)
    finally:
        files.active = False
    return {"trace": trace, "files": files.found}


def main():
    job = json.load(sys.stdin)
    result = run(job)
    sys.stdout.write(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
