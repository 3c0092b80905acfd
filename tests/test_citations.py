"""Comments and docs cite only files the repository has: every path under one of its
folders that a source or doc file names exists (or, for a name pattern, something
starting with it does), and nothing cites the material beside the development checkout."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("docs", "web", "runtime", "stubs", "scripts", "tests", "bench", "deploy")
CITED = re.compile(r"(?<![\w/.-])((?:%s)/[\w./-]*\w)" % "|".join(FOLDERS + ("shared",)))
SUFFIXES = {".py", ".js", ".mjs", ".md", ".sh", ".toml", ".html", ".css", ".lua"}
SKIP = {".venv", "build", "node_modules", "vendor", ".git", "__pycache__", "fixtures", "golden",
        "site", "dist", "bundle"}
WRITTEN_BY_A_RUN = {"bench/breakdown.json"}   # bench/breakdown.py writes it
# the audit of outside paths, and this file's own examples
NAMES_WHAT_IT_LOOKS_FOR = {"tests/test_self_contained.py", "tests/test_citations.py",
                           # quotes what a lesson prints about its own working folder
                           "tests/test_lesson_day56.py"}


def cited_paths():
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if any(part in SKIP for part in rel.parts) or path.suffix not in SUFFIXES:
            continue
        if not path.is_file() or rel.as_posix() in NAMES_WHAT_IT_LOOKS_FOR:
            continue
        if rel.parts[0] == "stubs" and len(rel.parts) > 2 or rel.parts[:2] == ("runtime", "lessons"):
            continue   # a lesson's files name the files of its own (stand-in) working folder
        for number, line in enumerate(path.read_text("utf-8", errors="replace").splitlines(), 1):
            for match in CITED.finditer(line):
                yield f"{rel.as_posix()}:{number}", match.group(1).rstrip(".")


def exists(cited: str) -> bool:
    if cited in WRITTEN_BY_A_RUN or (ROOT / cited).exists():
        return True
    if re.search(r"[A-Z]{3,}", cited):   # a pattern: s06_BLOCK_SCENARIO.json, codemirror-VERSION
        return True
    folder, _, stem = cited.rpartition("/")                  # a prefix: web/vendor/pyodide-…
    return (ROOT / folder).is_dir() and any(p.name.startswith(stem)
                                            for p in (ROOT / folder).iterdir())


def test_cited_files_exist():
    missing = [(where, cited) for where, cited in cited_paths() if not exists(cited)]
    assert not missing, missing


def test_nothing_cites_the_material_beside_the_checkout():
    beside = [(where, cited) for where, cited in cited_paths() if cited.startswith("shared/")]
    assert not beside, beside


def test_the_check_sees_a_citation_that_is_gone():
    assert exists("docs/design.md") and exists("web/vendor/pyodide")
    assert not exists("docs/contract.md") and not exists("web/static/js/nothere.js")
