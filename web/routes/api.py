"""JSON routes: the lessons, their blocks and presets (the export writes the same data)."""
from __future__ import annotations

from fastapi import APIRouter

from .. import page_data
from . import block_or_404, get, lesson_or_404, preset_or_404


def router(lessons: dict) -> APIRouter:
    routes = APIRouter()

    @get(routes, "/api/lessons")
    def api_lessons():
        return {"lessons": [page_data.lesson_api(lesson) for lesson in lessons.values()]}

    @get(routes, "/api/lessons/{lesson_id}")
    def api_lesson(lesson_id: str):
        return page_data.lesson_api(lesson_or_404(lessons, lesson_id))

    @get(routes, "/api/lessons/{lesson_id}/blocks/{symbol}")
    def api_block(lesson_id: str, symbol: str):
        lesson = lesson_or_404(lessons, lesson_id)
        block = block_or_404(lesson, symbol)
        return next(b for b in page_data.lesson_api(lesson)["blocks"] if b["symbol"] == block.symbol)

    @get(routes, "/api/lessons/{lesson_id}/blocks/{symbol}/presets/{name}")
    def api_preset(lesson_id: str, symbol: str, name: str):
        lesson = lesson_or_404(lessons, lesson_id)
        block = block_or_404(lesson, symbol)
        preset_or_404(lesson, block, name)
        return page_data.preset_api(lesson, block.symbol, name)

    return routes
