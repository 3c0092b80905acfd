"""Lessons: ``lessons`` (``load_lesson``, ``load_lessons``, the bundled roots, blocks and
presets), ``files`` (where a lesson's files are, kept inside their lessons root;
``LessonError``), ``schema`` (the declared types of ``lesson.toml``), ``shown``
(what a block displays: its parts and rows), ``custom`` (a block run with the reader's own
setup text)."""
