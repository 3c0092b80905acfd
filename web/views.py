"""Whole pages, rendered the same way for the server and for the static export.

`root` is the prefix that leads from the page back to the site root ("/" when
served, "../../" and so on in an export); `links` says how pages link each other.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import page_data


@dataclass(frozen=True)
class Links:
    """How one page links to others: by query string (server) or by folder (export)."""

    static: bool = False

    def lesson(self, lesson_id: str, lang: str) -> str:
        if self.static:
            return f"lessons/{lesson_id}/" + ("en/" if lang == "en" else "")
        return f"lessons/{lesson_id}" + ("?lang=en" if lang == "en" else "")

    def index(self, lang: str) -> str:
        if self.static:
            return "en/" if lang == "en" else ""
        return "?lang=en" if lang == "en" else ""

    def other_lang(self, lang: str) -> str:
        """From a page in `lang` to the same page in the other language."""
        if self.static:
            return "../" if lang == "en" else "en/"
        return "?lang=zh" if lang == "en" else "?lang=en"


def index_html(lessons: dict, lang: str, root: str, links: Links, reloading: bool = False,
               policy: str | None = None) -> str:
    listing = [{"href": root + links.lesson(lesson.id, lang), "title": lesson.title[lang],
                "summary": lesson.summary[lang]} for lesson in lessons.values()]
    return page_data.render("index.html", lang=lang, root=root, lessons=listing, reloading=reloading,
                        lang_href=links.other_lang(lang), config={"lang": lang, "page": "index"},
                        policy=policy)


def lesson_html(lesson, lang: str, root: str, links: Links,
                scenarios: dict[str, str] | None = None, limits: dict | None = None,
                reloading: bool = False, policy: str | None = None) -> str:
    view = page_data.lesson_view(lesson, lang, scenarios)
    config = page_data.page_config(lesson, lang, view)
    config["langHref"] = links.other_lang(lang)
    return page_data.render("lesson.html", lang=lang, root=root, lesson=view, config=config,
                        reloading=reloading,
                        runtime=page_data.runtime_config(lesson, lang, root, limits),
                        policy=policy, index_href=root + links.index(lang), lang_href=links.other_lang(lang))


def embed_html(lesson, block_id: str, lang: str, root: str, links: Links,
               scenario: str | None = None, limits: dict | None = None,
               reloading: bool = False, policy: str | None = None) -> str:
    view = page_data.lesson_view(lesson, lang, {block_id: scenario} if scenario else None,
                             only=block_id)
    config = page_data.page_config(lesson, lang, view, embed=True)
    config["langHref"] = links.other_lang(lang)
    return page_data.render("embed.html", lang=lang, root=root, lesson=view, reloading=reloading,
                        block=view["blocks"][0], config=config,
                        runtime=page_data.runtime_config(lesson, lang, root, limits),
                        policy=policy)


def lesson_error_html(lesson_id: str, message: str, lang: str, root: str, links: Links) -> str:
    """The page at a lesson's URL while its files do not load (``serve --reload``): the
    error, as the console shows it; the page reloads itself once the lesson is fixed."""
    return page_data.render("lesson_error.html", lang=lang, root=root, lesson_id=lesson_id,
                            message=message, reloading=True, index_href=root + links.index(lang),
                            config={"lang": lang, "page": "lesson-error"})
