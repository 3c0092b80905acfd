"""A syntax error of a lesson's file as an author reads it: ``file:line:column``, the
message, then the line with a caret under the column (as compilers print it)."""


def located(failure, path):
    """``(where, reason)`` of the SyntaxError ``failure`` raised parsing the file at
    ``path``: where is ``path:line:column``; reason the message and the marked line."""
    line, column = failure.lineno, failure.offset or 1
    where = f"{path}:{line}:{column}" if line else str(path)
    reason = f"SyntaxError: {failure.msg}"
    text = (failure.text or "").rstrip("\r\n")
    if text.strip():
        indent = len(text) - len(text.lstrip())
        reason += f"\n    {text.strip()}\n    {' ' * max(column - 1 - indent, 0)}^"
    return where, reason
