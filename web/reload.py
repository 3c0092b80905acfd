"""``loopstep serve --reload``: serve the lessons while an author edits them.

``Reloading`` is the ASGI app: it forwards every request to the app built for the
lessons as they are on disk now. A thread watches the lessons' folders (watchfiles);
on a change every lesson is loaded again, each on its own: the good ones are served,
a bad one's error is printed on the console and shown at its URL
(web/templates/lesson_error.html), and a new app for this generation replaces the old
one. Open pages ask ``/api/reload`` for the generation (web/static/js/page/reload.js) and reload
themselves when it changes. Without ``--reload`` the server starts strictly: one bad
lesson stops it with its error.
"""
from __future__ import annotations

import sys
import threading
from pathlib import Path

import watchfiles

from loopstep.runtime.catalog import lessons as catalog


class Reloading:
    """The app of the lessons' current generation; ``build(lessons, errors, generation)``
    makes one (server.create_app)."""

    def __init__(self, build, roots: list[Path] | None, stream=None):
        self.build = build
        self.roots = [Path(root) for root in (roots or catalog.BUNDLED_ROOTS)]
        self.stream = stream or sys.stderr
        self.generation = 0
        self.app = None
        self.stopping = threading.Event()
        self.reload()
        self.thread = threading.Thread(target=self._watch, name="loopstep-reload", daemon=True)

    def start(self) -> Reloading:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()

    def reload(self) -> None:
        """Load every lesson again and build the app that serves them."""
        lessons, errors = catalog.load_lessons_each(self.roots)
        self.app = self.build(lessons, errors, self.generation + 1)
        self.generation += 1
        for lesson_id, message in errors.items():
            self.say(f"lesson {lesson_id} is not served (its page shows why): {message}")
        self.say(f"generation {self.generation}: serving {len(lessons)} lessons"
                 f" ({', '.join(lessons) or 'none'})")

    def say(self, text: str) -> None:
        print(f"loopstep: {text}", file=self.stream, flush=True)

    def _watch(self) -> None:
        folders = [root for root in self.roots if root.is_dir()]
        for changes in watchfiles.watch(*folders, stop_event=self.stopping, raise_interrupt=False):
            self.say("changed: " + ", ".join(sorted({Path(path).name for _, path in changes})))
            try:
                self.reload()
            except Exception as error:   # the last good app stays served
                self.say(f"reload failed, still serving generation {self.generation}: {error}")

    async def __call__(self, scope, receive, send):
        await self.app(scope, receive, send)
