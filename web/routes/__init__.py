"""The server's routes, in small routers: pages (HTML), api (lesson data as JSON) and
files (the fallbacks of the file layer, web/files.py). Shared here: GET routes that
answer HEAD too, and the 404s that name what was not found."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException


def get(router: APIRouter, path: str):
    """Register a GET route, and HEAD for it outside the schema."""
    def register(endpoint):
        router.add_api_route(path, endpoint, methods=["GET"])
        router.add_api_route(path, endpoint, methods=["HEAD"], include_in_schema=False)
        return endpoint
    return register


def lesson_or_404(lessons: dict, lesson_id: str):
    if lesson_id not in lessons:
        raise HTTPException(404, f"unknown lesson: {lesson_id}")
    return lessons[lesson_id]


def block_or_404(lesson, block_id: str):
    for block in lesson.blocks:
        if block.id == block_id:
            return block
    raise HTTPException(404, f"unknown block: {lesson.id}/{block_id}")


def preset_or_404(lesson, block, name: str | None):
    if name is not None and name not in block.presets:
        raise HTTPException(404, f"unknown preset for {lesson.id}/{block.id}: {name}")
    return name
