"""A lesson's files: where they are, what they must hold, and the error of a lesson that
does not load.

Every path in ``lesson.toml`` is relative, without a drive or ``..``, and names the file
of the first lessons root that has it. Each file the lesson reads or the site serves
(``lesson.toml``, the setup, the modules, the presets' recordings) must have its real
path, symlinks followed, inside the root it was found in: a link in a lessons folder
that leads out of it stops the lesson from loading, so no file from elsewhere reaches a
page, the app's ``/py/lessons/`` or an export. Links that stay inside the root are
followed. A preset's recording is read and checked against the recording format when the
lesson loads. See docs/authoring.md, "Validation".
"""

from pathlib import Path, PurePosixPath

from ..recording import format as recording_format


class LessonError(ValueError):
    """A lesson that cannot be loaded; the message names the file and the reason."""

    def __init__(self, where, reason):
        super().__init__(f"{where}: {reason}")
        self.where = str(where)
        self.reason = reason


def read(path):
    return Path(path).read_bytes().decode("utf-8")


def read_text(path, why):
    """The text of a lesson's file; LessonError when it cannot be read as UTF-8."""
    try:
        return read(path)
    except OSError as error:
        raise LessonError(path, f"cannot be read ({error.strerror or error}){why}") from None
    except UnicodeDecodeError as error:
        raise LessonError(path, f"is not UTF-8 text (byte {error.start}){why}") from None


def check_relative(where, value):
    """``value`` when it is a relative path without ``..``; else LessonError."""
    if not isinstance(value, str) or not value:
        raise LessonError(where, f"expected a relative path, got {value!r}")
    path = PurePosixPath(value)
    if path.is_absolute() or value.startswith(("/", "\\")) or ":" in path.parts[0] \
            or ".." in path.parts or "\\" in value:
        raise LessonError(where, f"path {value!r} must be relative, without '..'")
    return value


def inside(path, root, where, value):
    """``path`` (found in the lessons root ``root``) when its real path is in that root;
    else LessonError naming ``value``, the root and where the link leads."""
    real, folder = Path(path).resolve(), Path(root).resolve()
    if not real.is_relative_to(folder):
        raise LessonError(where, f"{value!r} leaves the lessons folder {root} through a "
                                 f"symlink (it leads to {real}); a lesson's files must stay "
                                 "in its folder")
    return path


def resolve(value, roots, where):
    """The path of a lesson-relative path: in the first root that has it, kept inside it."""
    check_relative(where, value)
    for root in roots:
        candidate = root / value
        if candidate.is_file():
            return inside(candidate, root, where, value)
    names = ", ".join(str(root) for root in roots)
    raise LessonError(where, f"file {value!r} not found in the lessons roots ({names})")


def recording(path, where):
    """``path`` when it holds a recording (runtime/recording/format.py: JSON that fits the
    format's schema); else LessonError naming the file and the JSON path of the problem."""
    try:
        recording_format.loads(read_text(path, f" ({where})"), str(path))
    except recording_format.RecordingError as error:
        raise LessonError(where, str(error)) from None
    return path
