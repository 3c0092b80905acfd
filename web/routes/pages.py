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


def lesson_error(lesson_id: str, message: str, lang: str) -> HTMLResponse:
    """A lesson that does not load, at its URL (serve --reload): its error, status 500."""
    return HTMLResponse(views.lesson_error_html(lesson_id, message, lang, "/", LINKS),
                        status_code=500, headers={"Cache-Control": "no-cache"})


def router(lessons: dict, limits: dict | None, errors: dict | None = None,
           reloading: bool = False) -> APIRouter:
    """The pages; `errors` {id: message} of lessons that did not load (shown at their
    URLs), `reloading`: the pages reload themselves on a new generation (web/reload.py)."""
    routes = APIRouter()
    errors = errors or {}
    for lesson in lessons.values():   # what the pages show of the sources, parsed once now
        for block in lesson.blocks:   # rather than by the threads answering requests
            lesson.shown_names(block.id)

    @get(routes, "/")
    def index(request: Request, lang: str | None = None):
        return in_lang(views.index_html(lessons, page_lang(request, lang), "/", LINKS, reloading), lang)

    @get(routes, "/lessons/{lesson_id}")
    def lesson_page(lesson_id: str, request: Request, lang: str | None = None):
        if lesson_id in errors:
            return lesson_error(lesson_id, errors[lesson_id], page_lang(request, lang))
        lesson = lesson_or_404(lessons, lesson_id)
        return in_lang(views.lesson_html(lesson, page_lang(request, lang), "/", LINKS,
                                         scenarios_from_query(request), limits, reloading), lang)

    def embed_page(request: Request, lesson_id: str, block_id: str, scenario: str | None = None,
                   lang: str | None = None):
        if lesson_id in errors:
            return lesson_error(lesson_id, errors[lesson_id], page_lang(request, lang))
        lesson = lesson_or_404(lessons, lesson_id)
        block = block_or_404(lesson, block_id)
        preset_or_404(lesson, block, scenario)
        return in_lang(views.embed_html(lesson, block_id, page_lang(request, lang), "/", LINKS,
                                        scenario, limits, reloading), lang)

    def embed_page_en(request: Request, lesson_id: str, block_id: str,
                      scenario: str | None = None):
        return embed_page(request, lesson_id, block_id, scenario, "en")

    # /embed/L/S?lang=en, and the folder forms /embed/L/S/ and /embed/L/S/en/ that
    # a static export also has, so that embed.js works with either.
    get(routes, "/embed/{lesson_id}/{block_id}")(embed_page)
    get(routes, "/embed/{lesson_id}/{block_id}/")(embed_page)
    get(routes, "/embed/{lesson_id}/{block_id}/en/")(embed_page_en)
    return routes
