"""HTML routes: the index, lesson pages and embeddable blocks."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from .. import page_data, views
from . import block_or_404, get, lesson_or_404, preset_or_404

LINKS = views.Links(static=False)


def html(body: str) -> HTMLResponse:
    return HTMLResponse(body, headers={"Cache-Control": "no-cache"})


def scenarios_from_query(request: Request) -> dict[str, str]:
    """`?scenario.child_tools=missing` picks a block's preset on the lesson page (by block id)."""
    prefix = "scenario."
    return {k[len(prefix):]: v for k, v in request.query_params.items() if k.startswith(prefix)}


def router(lessons: dict, limits: dict | None) -> APIRouter:
    routes = APIRouter()

    @get(routes, "/")
    def index(lang: str | None = None):
        return html(views.index_html(lessons, page_data.pick_lang(lang), "/", LINKS))

    @get(routes, "/lessons/{lesson_id}")
    def lesson_page(lesson_id: str, request: Request, lang: str | None = None):
        lesson = lesson_or_404(lessons, lesson_id)
        return html(views.lesson_html(lesson, page_data.pick_lang(lang), "/", LINKS,
                                      scenarios_from_query(request), limits))

    def embed_page(lesson_id: str, block_id: str, scenario: str | None = None,
                   lang: str | None = None):
        lesson = lesson_or_404(lessons, lesson_id)
        block = block_or_404(lesson, block_id)
        preset_or_404(lesson, block, scenario)
        return html(views.embed_html(lesson, block_id, page_data.pick_lang(lang), "/", LINKS,
                                     scenario, limits))

    def embed_page_en(lesson_id: str, block_id: str, scenario: str | None = None):
        return embed_page(lesson_id, block_id, scenario, "en")

    # /embed/L/S?lang=en, and the folder forms /embed/L/S/ and /embed/L/S/en/ that
    # a static export also has, so that embed.js works with either.
    get(routes, "/embed/{lesson_id}/{block_id}")(embed_page)
    get(routes, "/embed/{lesson_id}/{block_id}/")(embed_page)
    get(routes, "/embed/{lesson_id}/{block_id}/en/")(embed_page_en)
    return routes
