"""File routes: what the file layer (web/files.py) does not have ends here, as a 404
that names the path. The routes also document the file URLs in the API schema."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException

from . import get

PATHS = ("/static/{relpath:path}", "/vendor/{relpath:path}", "/py/runtime/{relpath}",
         "/py/lessons/{relpath:path}", "/py/bundles/{relpath:path}")


def not_found(relpath: str):
    raise HTTPException(404, f"not found: {relpath}")


def router() -> APIRouter:
    routes = APIRouter()
    for path in PATHS:
        get(routes, path)(not_found)
    return routes
