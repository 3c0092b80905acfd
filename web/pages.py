"""What the templates and the page script see: plain dicts built from the lesson catalog."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from runtime.catalog import CUSTOM
from runtime.recorder import DEFAULT_MAX_STEPS

from . import assets, bundles
from .highlight import highlight_lines

HERE = Path(__file__).parent
RUNTIME_DIR = HERE.parent / "runtime"
LANGS = ("zh", "en")
WORKER_ROOT = "/loopstep"


@lru_cache(maxsize=1)
def messages() -> dict[str, dict[str, str]]:
    return json.loads((HERE / "messages.json").read_text(encoding="utf-8"))


def pick_lang(lang: str | None) -> str:
    return lang if lang in LANGS else "zh"


def templates() -> Environment:
    return _environment()


@lru_cache(maxsize=1)
def _environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def engine_files() -> list[str]:
    """The recorder's own modules, as the worker must lay them out."""
    return sorted(p.name for p in RUNTIME_DIR.glob("*.py"))


def preset_label(lesson, name: str, lang: str) -> str:
    preset = lesson.preset(name)
    return getattr(preset, lang)


def block_view(lesson, block, lang: str, scenario: str | None = None) -> dict:
    scenario = scenario if scenario in block.presets else block.presets[0]
    return {
        "symbol": block.symbol,
        "source": block.source,
        "scenario": scenario,
        "lines": highlight_lines(block.text),
        "presets": [{"name": n, "label": preset_label(lesson, n, lang)} for n in block.presets],
        "setup_text": setup_display(lesson, block.symbol, scenario),
        "agent": lesson.agent is not None,   # event breakpoints: a run may make model calls
    }


def setup_display(lesson, symbol: str, scenario: str) -> str:
    """The setup and the call entry exactly as they run for `scenario`."""
    return lesson.setup_text(scenario) + lesson.block(symbol).entry


def stage_lines(stage) -> list[dict]:
    return [{"block": s.block, "from": s.first, "to": s.last} for s in stage.lines]


def stage_view(stage, lang: str) -> dict:
    return {"id": stage.id, "caption": getattr(stage, lang), "lines": stage_lines(stage)}


def lesson_view(lesson, lang: str, scenarios: dict[str, str] | None = None,
                only: str | None = None) -> dict:
    scenarios = scenarios or {}
    blocks = [b for b in lesson.blocks if only in (None, b.symbol)]
    return {
        "id": lesson.id,
        "title": lesson.title[lang],
        "summary": lesson.summary[lang],
        "blocks": [block_view(lesson, b, lang, scenarios.get(b.symbol)) for b in blocks],
        "stages": [stage_view(s, lang) for s in lesson.stages],
    }


def runtime_config(lesson, lang: str, root: str, limits: dict | None = None) -> dict:
    """What the Python worker needs to boot, embedded as a small JSON data island in the
    document's head, so that the worker starts before the body is parsed.

    `limits` may set the runtime's `bootTimeoutMs`, `recordTimeoutMs` and `maxSteps`
    (default: the recorder's DEFAULT_MAX_STEPS)."""
    python_bundles = [f"{root}{bundles.FOLDER}/{name}"
                      for name in (bundles.RUNTIME, bundles.lesson_name(lesson.id))]
    return {
        "lang": lang,
        "pyodide": {"indexURL": f"{root}vendor/pyodide-{assets.PYODIDE_VERSION}/",
                    "bootURL": f"{root}vendor/{assets.BOOT_DIR.name}/",
                    "bootVersion": assets.BOOT_VERSION,
                    "sizes": assets.boot_sizes()},
        "worker": f"{root}static/js/worker.js",
        "python": {"bundles": python_bundles, "roots": [f"{WORKER_ROOT}/lessons"],
                   "sysPath": WORKER_ROOT,
                   "compiled": f"{root}static/pyc/{assets.RUNTIME_PYC.name}"},
        "runtime": {"maxSteps": DEFAULT_MAX_STEPS, **(limits or {})},
    }


def page_config(lesson, lang: str, view: dict, *, embed: bool = False) -> dict:
    """Everything else the page script needs, embedded as a JSON data island."""
    return {
        "lang": lang,
        "embed": embed,
        "messages": messages()[lang],
        "lesson": lesson.id,
        "blocks": {
            f"{lesson.id}/{b.symbol}": {
                "symbol": b.symbol,
                "lineCount": len(b.text.split("\n")),
                "presets": [{"name": n, "label": preset_label(lesson, n, lang)} for n in b.presets],
                "setup": {n: setup_display(lesson, b.symbol, n) for n in b.presets},
                "entry": b.entry,
                "customScenario": CUSTOM,
            }
            for b in lesson.blocks
        },
        "stages": [stage_view(s, lang) for s in lesson.stages],
        "blocksShown": [b["symbol"] for b in view["blocks"]],
    }


def render(name: str, **context) -> str:
    lang = context["lang"]
    context.setdefault("t", messages()[lang])
    context.setdefault("early_script", assets.EARLY_SCRIPT)
    return templates().get_template(name).render(**context)


def lesson_api(lesson) -> dict:
    """The JSON twin of a lesson page: blocks, presets and stages in both languages."""
    return {
        "id": lesson.id,
        "title": dict(lesson.title),
        "summary": dict(lesson.summary),
        "presets": [{"name": p.name, "zh": p.zh, "en": p.en} for p in lesson.presets],
        "blocks": [
            {"symbol": b.symbol, "source": b.source, "first_line": b.def_line,
             "code": b.text, "presets": list(b.presets)}
            for b in lesson.blocks
        ],
        "stages": [{"id": s.id, "zh": s.zh, "en": s.en, "lines": stage_lines(s)} for s in lesson.stages],
    }


def preset_api(lesson, symbol: str, name: str) -> dict:
    """One preset of one block: its labels and the setup text it runs, as the server's
    /api/…/presets/NAME and the export's …/presets/NAME.json give it."""
    preset = lesson.preset(name)
    return {"lesson": lesson.id, "block": symbol, "name": name, "zh": preset.zh, "en": preset.en,
            "setup": setup_display(lesson, symbol, name)}
