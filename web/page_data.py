"""What the templates and the page script see: plain dicts built from the lesson catalog."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from loopstep.runtime.catalog.lessons import CUSTOM
from loopstep.runtime.recorder import DEFAULT_MAX_STEPS
from loopstep.runtime.run_request import FIRST_STEPS
from loopstep.runtime.recording.replay import answerable

from . import assets, bundles, module_graph, shipped_traces
from .highlight import highlight_lines, visible_html, visible_plain

HERE = Path(__file__).parent
LANGS = ("zh", "en")


@lru_cache(maxsize=1)
def messages() -> dict[str, dict[str, str]]:
    return json.loads((HERE / "messages.json").read_text(encoding="utf-8"))


def pick_lang(lang: str | None) -> str:
    return lang if lang in LANGS else "zh"


def accepted_lang(header: str | None) -> str:
    """The page language an ``Accept-Language`` header ranks highest (by q, then order);
    zh when it names neither."""
    best, best_q = "zh", 0.0
    for part in (header or "").split(","):
        tag, *params = (piece.strip() for piece in part.split(";"))
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        primary = tag.lower().split("-")[0]
        if primary in LANGS and q > best_q:
            best, best_q = primary, q
    return best


def templates() -> Environment:
    return _environment()


@lru_cache(maxsize=1)
def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # a lesson's texts with their invisible characters shown (highlight.py): marked in
    # the page's HTML, as labels in plain text (a <title>)
    env.filters["visible"] = lambda text: Markup(visible_html(str(text)))
    env.filters["visible_plain"] = lambda text: visible_plain(str(text))
    return env


def preset_label(lesson, name: str, lang: str) -> str:
    preset = lesson.preset(name)
    return getattr(preset, lang)


def block_rows(block) -> list[dict]:
    """The displayed rows: {"n", "html"} per line (its number as the gutter shows it),
    {"gap": True, "from", "to"} for elided file lines. Each run of lines between gaps is
    highlighted as one text (a `symbol` block: the function, exactly as before)."""
    out: list[dict] = []
    run: list[tuple] = []

    def flush():
        html = highlight_lines("\n".join(text for _, text in run))
        out.extend({"n": n, "html": h} for (n, _), h in zip(run, html))
        run.clear()

    for k, row in enumerate(block.rows):
        if row is not None:
            run.append(row)
            continue
        flush()
        out.append({"gap": True, "from": block.rows[k - 1][0] + 1, "to": block.rows[k + 1][0] - 1})
    flush()
    return out


def block_title(block) -> str:
    """The names a block shows: its function(s), or its file."""
    return block.source if block.symbols == ("*",) else ", ".join(block.symbols)


def block_view(lesson, block, lang: str, scenario: str | None = None) -> dict:
    scenario = scenario if scenario in block.presets else block.presets[0]
    return {
        "id": block.id,
        "title": block_title(block),
        "source": block.source,
        "scenario": scenario,
        "rows": block_rows(block),
        "presets": [{"name": n, "label": preset_label(lesson, n, lang)} for n in block.presets],
        "setup_text": setup_display(lesson, block.id, scenario),
        # event breakpoints: a run may make model calls, or start threads
        "agent": lesson.agent is not None or starts_threads(block),
        "recordable": answerable(lesson),    # a recording file may answer its model calls
        "takes_input": bool(lesson.standins and lesson.standins.input),  # a live run's prompt
    }


def starts_threads(block) -> bool:
    """Whether the block's shown code names threads (its runs' thread events: event
    breakpoints on a thread's start and on switches)."""
    return any(row is not None and "Thread" in row[1] for row in block.rows)


def setup_display(lesson, block_id: str, scenario: str) -> str:
    """The setup and the call entry exactly as they run for `scenario`."""
    return lesson.setup_text(scenario) + lesson.block(block_id).entry


def stage_lines(stage) -> list[dict]:
    return [{"block": s.block, "from": s.first, "to": s.last} for s in stage.lines]


def stage_view(stage, lang: str) -> dict:
    return {"id": stage.id, "caption": getattr(stage, lang), "lines": stage_lines(stage)}


def lesson_view(lesson, lang: str, scenarios: dict[str, str] | None = None,
                only: str | None = None) -> dict:
    scenarios = scenarios or {}
    blocks = [b for b in lesson.blocks if only in (None, b.id)]
    return {
        "id": lesson.id,
        "title": lesson.title[lang],
        "summary": lesson.summary[lang],
        "blocks": [block_view(lesson, b, lang, scenarios.get(b.id)) for b in blocks],
        "stages": [stage_view(s, lang) for s in lesson.stages],
        # the lesson's `diagram.title`, else the page's default caption
        "diagram_title": (lesson.diagram_title or {}).get(lang) or messages()[lang]["diagram_title"],
        # what the intro says a switch of input does (lesson.toml `switch_resets_breakpoints`)
        "switch_resets_breakpoints": lesson.switch_resets_breakpoints,
    }


def runtime_config(lesson, lang: str, root: str, limits: dict | None = None) -> dict:
    """What the Python worker needs to boot, embedded as a small JSON data island in the
    document's head, so that the worker starts before the body is parsed.

    `limits` may set the runtime's `bootTimeoutMs`, `recordTimeoutMs`, `maxSteps`
    (default: the recorder's DEFAULT_MAX_STEPS) and `firstSteps` (FIRST_STEPS: a long
    replay's first steps are shown while the rest is recorded). `traces`: the lesson's shipped
    traces ({url, version, runs}, web/shipped_traces.py), or null: the page records live."""
    runtime = {"maxSteps": DEFAULT_MAX_STEPS, "firstSteps": FIRST_STEPS, **(limits or {})}
    folder = f"{root}{bundles.FOLDER}/"
    return {
        "lang": lang,
        "pyodide": {"indexURL": f"{root}vendor/pyodide-{assets.PYODIDE_VERSION}/",
                    "bootURL": f"{root}vendor/{assets.BOOT_DIR.name}/",
                    "bootVersion": assets.BOOT_VERSION,
                    "sizes": assets.boot_sizes()},
        "worker": f"{root}static/js/{module_graph.worker_script()}",
        # the frame whose opaque origin hosts the guest runtime (boot/guest-client.js)
        "guest": f"{root}static/guest.html",
        # the lesson's files; the recorder's (its sources, precompiled) only when the
        # snapshot's recorder is not these sources (`digest`), or a module it never
        # imported is needed (web/static/js/worker.js)
        "python": {"bundles": [folder + bundles.lesson_name(lesson.id)],
                   "roots": [f"{assets.WORKER_ROOT}/lessons"],
                   "sysPath": assets.WORKER_ROOT,
                   "runtime": {"bundle": folder + bundles.RUNTIME,
                               "compiled": f"{root}static/pyc/{assets.RUNTIME_PYC.name}",
                               "digest": bundles.runtime_digest()}},
        "runtime": runtime,
        "traces": shipped().for_lesson(lesson, root, runtime["maxSteps"]),
    }


@lru_cache(maxsize=1)
def shipped() -> shipped_traces.Shipped:
    """The built traces, read once like the boot set."""
    return shipped_traces.Shipped()


def page_config(lesson, lang: str, view: dict, *, embed: bool = False) -> dict:
    """Everything else the page script needs, embedded as a JSON data island."""
    return {
        "lang": lang,
        "embed": embed,
        "messages": messages()[lang],
        "lesson": lesson.id,
        "blocks": {
            f"{lesson.id}/{b.id}": {
                "name": b.id,
                "lines": b.spans,   # the displayed line numbers, as [first, last] runs
                "presets": [{"name": n, "label": preset_label(lesson, n, lang)} for n in b.presets],
                "setup": {n: setup_display(lesson, b.id, n) for n in b.presets},
                "entry": b.entry,
                "customScenario": CUSTOM,
                # a choice of another preset in the picker clears the breakpoints (block.js)
                "switchResetsBreakpoints": lesson.switch_resets_breakpoints,
                "hiddenCalls": hidden_calls(lesson, b),
                "ownNames": own_names(lesson, b),
            }
            for b in lesson.blocks
        },
        "stages": [stage_view(s, lang) for s in lesson.stages],
        "blocksShown": [b["id"] for b in view["blocks"]],
    }


def own_names(lesson, block) -> list[str] | None:
    """A whole-file block's module's own global names (shown.py), else None; worked out
    once per loaded lesson (Lesson.shown_names), never per request."""
    return lesson.shown_names(block.id).own_names


def hidden_calls(lesson, block) -> dict:
    """{line: [name]} of the calls of functions the block does not show (shown.py); worked
    out once per loaded lesson (Lesson.shown_names), never per request."""
    return lesson.shown_names(block.id).hidden_calls


def render(name: str, **context) -> str:
    lang = context["lang"]
    context.setdefault("t", messages()[lang])
    context.setdefault("early_script", assets.EARLY_SCRIPT)
    shipped_runs = shown_traces(context.get("runtime"), context.get("lesson"))
    context.setdefault("preloads", module_graph.preloads(bool(shipped_runs)))
    context.setdefault("page_script", module_graph.page_script())
    context.setdefault("page_styles", module_graph.page_styles())
    context.setdefault("trace_preloads", shipped_runs)
    return templates().get_template(name).render(**context)


def shown_traces(runtime: dict | None, lesson: dict | None) -> list[str]:
    """The URLs of the shipped traces of the presets the page shows (a Debug's first
    need), preloaded from the document's head; the same URLs as page/shipped.js asks for."""
    shipped = (runtime or {}).get("traces")
    if not shipped or not lesson:
        return []
    return [f"{shipped['url']}{quote(b['id'], safe='')}/{quote(b['scenario'], safe='')}.json"
            f"?v={shipped['version']}"
            for b in lesson["blocks"] if b["scenario"] in shipped["runs"].get(b["id"], ())]


def lesson_api(lesson) -> dict:
    """The JSON twin of a lesson page: blocks, presets and stages in both languages."""
    return {
        "id": lesson.id,
        "title": dict(lesson.title),
        "summary": dict(lesson.summary),
        "presets": [{"name": p.name, "zh": p.zh, "en": p.en} for p in lesson.presets],
        "blocks": [block_api(b) for b in lesson.blocks],
        "stages": [{"id": s.id, "zh": s.zh, "en": s.en, "lines": stage_lines(s)} for s in lesson.stages],
    }


def block_api(block) -> dict:
    """One block as JSON: a `symbol` block's `code` is its function or method, numbered
    from `first_line` (1 for a method: its lines are the file's); a `symbols` block has
    `symbol` null, `first_line` 1 (its lines are the file's) and no `code`. `parts`: each
    displayed function or method (or the file) with its file lines and text."""
    found = {"id": block.id, "symbol": block.symbol, "symbols": list(block.symbols),
             "source": block.source, "first_line": block.first_line}
    if block.symbol is not None:
        found["code"] = block.text
    text = dict(row for row in block.rows if row is not None)
    base = block.first_line - 1
    found["parts"] = [{"name": p.name, "from": p.first, "to": p.last,
                       "code": "\n".join(text[k - base] for k in range(p.first, p.last + 1))}
                      for p in block.parts]
    found["presets"] = list(block.presets)
    return found


def preset_api(lesson, block_id: str, name: str) -> dict:
    """One preset of one block: its labels and the setup text it runs, as the server's
    /api/…/presets/NAME and the export's …/presets/NAME.json give it."""
    preset = lesson.preset(name)
    return {"lesson": lesson.id, "block": block_id, "name": name, "zh": preset.zh, "en": preset.en,
            "setup": setup_display(lesson, block_id, name)}
