"""The vendored CodeMirror bundle is what scripts/vendor_codemirror.sh built, with its licenses."""
import gzip
import hashlib
import json
import re
from pathlib import Path

import brotli

from loopstep.web import assets

ROOT = Path(__file__).resolve().parent.parent
DIR = assets.CODEMIRROR_DIR
BUNDLE = DIR / "codemirror.mjs"


def test_bundle_matches_its_manifest_and_readme():
    digest = hashlib.sha256(BUNDLE.read_bytes()).hexdigest()
    assert (DIR / "SHA256SUMS").read_text().split() == [digest, "codemirror.mjs"]
    assert f"`{digest}`" in (DIR / "README.md").read_text()


def test_precompressed_copies_decompress_to_the_bundle():
    data = BUNDLE.read_bytes()
    assert brotli.decompress((DIR / "codemirror.mjs.br").read_bytes()) == data
    assert gzip.decompress((DIR / "codemirror.mjs.gz").read_bytes()) == data


def test_every_locked_package_version_is_listed_with_its_mit_license():
    lock = json.loads((ROOT / "scripts/codemirror/package-lock.json").read_text())
    readme = (DIR / "README.md").read_text()
    licenses = (DIR / "LICENSES.md").read_text()
    listed = dict(re.findall(r"^\| (\S+) \| (\S+) \| MIT \|$", readme, re.M))
    assert "codemirror" in listed and "@codemirror/view" in listed
    for name, version in listed.items():
        assert lock["packages"][f"node_modules/{name}"]["version"] == version, name
        assert f"## {name} {version} (MIT)" in licenses, name
    assert licenses.count("Permission is hereby granted, free of charge") == len(listed)


def test_the_directory_name_is_the_locked_codemirror_version():
    lock = json.loads((ROOT / "scripts/codemirror/package-lock.json").read_text())
    assert DIR.name == f"codemirror-{lock['packages']['node_modules/codemirror']['version']}"


def test_the_bundle_imports_nothing_and_fetches_nothing():
    text = BUNDLE.read_text(encoding="utf-8")
    assert not re.search(r"""\bimport\s*\(|(^|[;}])\s*import\s*[{*"']""", text)
    assert re.search(r"export\s*\{[^}]*\bEditorView\b", text)
    assert "https://cdn" not in text and "unpkg" not in text
