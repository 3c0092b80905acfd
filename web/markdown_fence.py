"""A Python-Markdown extension (for MkDocs and any Markdown site) that turns a fence

    ```loopstep s06/run_subagent scenario=limit lang=en
    ```

into a live loopstep block: the `<div data-loopstep=…>` that `static/embed.js` mounts, and
that script tag (once per page) from the configured loopstep origin. In mkdocs.yml:

    markdown_extensions:
      - loopstep:
          origin: https://lessons.example.org

A fence with a bad target or an unknown option stops the build with the reason.
"""
from __future__ import annotations

import re
import shlex
from html import escape

from markdown import Extension
from markdown.preprocessors import Preprocessor

FENCE = re.compile(r"^(?P<indent>[ ]{0,3})(?P<fence>`{3,}|~{3,})[ ]*loopstep(?:[ ]+(?P<info>[^\n]*))?$")
TARGET = re.compile(r"^[\w.-]+/[\w.-]+$")
OPTIONS = {"scenario": "data-scenario", "lang": "data-lang", "title": "data-title",
           "loading": "data-loading"}
CHOICES = {"lang": ("zh", "en"), "loading": ("eager", "lazy")}


class FenceError(ValueError):
    """A loopstep fence that cannot become a block."""


def embed_html(info: str, origin: str, with_script: bool) -> str:
    """The div (and the script tag) for a fence's info string "LESSON/SYMBOL key=value …"."""
    try:
        words = shlex.split(info)
    except ValueError as error:
        raise FenceError(f"loopstep fence `{info}`: {error}") from None
    if not words or not TARGET.match(words[0]):
        raise FenceError(f"loopstep fence `{info}`: the first word must be <lesson>/<symbol>, "
                         "e.g. ```loopstep s06/run_subagent scenario=limit")
    attrs = {"data-loopstep": words[0]}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep or key not in OPTIONS:
            raise FenceError(f"loopstep fence `{info}`: unknown option `{word}` "
                             f"(known: {', '.join(f'{k}=…' for k in OPTIONS)})")
        if key in CHOICES and value not in CHOICES[key]:
            raise FenceError(f"loopstep fence `{info}`: {key} must be one of {', '.join(CHOICES[key])}")
        attrs[OPTIONS[key]] = value
    div = "<div " + " ".join(f'{name}="{escape(value)}"' for name, value in attrs.items()) + "></div>"
    if not with_script:
        return div
    src = origin.rstrip("/") + "/static/embed.js"
    return div + f'\n<script type="module" src="{escape(src)}"></script>'


class LoopstepFences(Preprocessor):
    def __init__(self, md, origin: str):
        super().__init__(md)
        self.origin = origin
        self.scripted = False

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(lines):
            match = FENCE.match(lines[i])
            if not match:
                out.append(lines[i])
                i += 1
                continue
            closing = re.compile(rf"^[ ]{{0,3}}{re.escape(match['fence'][0])}{{{len(match['fence'])},}}[ ]*$")
            end = next((j for j in range(i + 1, len(lines)) if closing.match(lines[j])), None)
            if end is None:
                raise FenceError(f"loopstep fence `{lines[i].strip()}` is not closed")
            html = embed_html(match["info"] or "", self.origin, not self.scripted)
            self.scripted = True
            out += ["", self.md.htmlStash.store(html), ""]
            i = end + 1
        return out


class LoopstepExtension(Extension):
    def __init__(self, **kwargs):
        self.config = {"origin": ["", "the loopstep site serving /static/embed.js, e.g. "
                                      "https://lessons.example.org ('' : this site's root)"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md):
        md.registerExtension(self)
        self.fences = LoopstepFences(md, self.getConfig("origin"))
        # before fenced_code (25) and normalize_whitespace (30) sees the lines
        md.preprocessors.register(self.fences, "loopstep", 29)

    def reset(self):
        self.fences.scripted = False


def makeExtension(**kwargs):  # Python-Markdown's name-based loading: "web.markdown_fence"
    return LoopstepExtension(**kwargs)
