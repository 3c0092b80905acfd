"""HTML routes: the index, lesson pages and embeddable blocks."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from .. import page_data, views
from . import block_or_404, get, lesson_or_404, preset_or_404

LINKS = views.Links(static=False)
LANG_COOKIE = "loopstep-lang"     # the language a reader chose (?lang=), remembered a year


def html(body: str) -> HTMLResponse:
    return HTMLResponse(body, headers={"Cache-Control": "no-cache",
                                       "Vary": "Accept-Language, Cookie"})


def page_lang(request: Request, lang: str | None) -> str:
    """The page's language: ``?lang=`` when given, else the reader's remembered choice,
    else the browser's ``Accept-Language``."""
    for chosen in (lang, request.cookies.get(LANG_COOKIE)):
        if chosen in page_data.LANGS:
            return chosen
    return page_data.accepted_lang(request.headers.get("accept-language"))


def in_lang(body: str, lang: str | None) -> HTMLResponse:
    """The page; an explicit ``?lang=`` choice is remembered in a cookie."""
    response = html(body)
    if lang in page_data.LANGS:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


def scenarios_from_query(request: Request) -> dict[str, str]:
    """`?scenario.child_tools=missing` picks a block's preset on the lesson page (by block id)."""
    prefix = "scenario."
    return {k[len(prefix):]: v for k, v in request.query_params.items() if k.startswith(prefix)}


def router(lessons: dict, limits: dict | None) -> APIRouter:
    routes = APIRouter()

    @get(routes, "/")
    def index(request: Request, lang: str | None = None):
        return in_lang(views.index_html(lessons, page_lang(request, lang), "/", LINKS), lang)

    @get(routes, "/lessons/{lesson_id}")
    def lesson_page(lesson_id: str, request: Request, lang: str | None = None):
        lesson = lesson_or_404(lessons, lesson_id)
        return in_lang(views.lesson_html(lesson, page_lang(request, lang), "/", LINKS,
                                         scenarios_from_query(request), limits), lang)

    def embed_page(request: Request, lesson_id: str, block_id: str, scenario: str | None = None,
                   lang: str | None = None):
        lesson = lesson_or_404(lessons, lesson_id)
        block = block_or_404(lesson, block_id)
        preset_or_404(lesson, block, scenario)
        return in_lang(views.embed_html(lesson, block_id, page_lang(request, lang), "/", LINKS,
                                        scenario, limits), lang)

    def embed_page_en(request: Request, lesson_id: str, block_id: str,
                      scenario: str | None = None):
        return embed_page(request, lesson_id, block_id, scenario, "en")

    # /embed/L/S?lang=en, and the folder forms /embed/L/S/ and /embed/L/S/en/ that
    # a static export also has, so that embed.js works with either.
    get(routes, "/embed/{lesson_id}/{block_id}")(embed_page)
    get(routes, "/embed/{lesson_id}/{block_id}/")(embed_page)
    get(routes, "/embed/{lesson_id}/{block_id}/en/")(embed_page_en)
    return routes
