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

    @get(routes, "/api/lessons/{lesson_id}/blocks/{block_id}")
    def api_block(lesson_id: str, block_id: str):
        return page_data.block_api(block_or_404(lesson_or_404(lessons, lesson_id), block_id))

    @get(routes, "/api/lessons/{lesson_id}/blocks/{block_id}/presets/{name}")
    def api_preset(lesson_id: str, block_id: str, name: str):
        lesson = lesson_or_404(lessons, lesson_id)
        block = block_or_404(lesson, block_id)
        preset_or_404(lesson, block, name)
        return page_data.preset_api(lesson, block.id, name)

    return routes
