"""``loopstep import learn-claude-code``: a recording from the per-cycle trace format of
learn-claude-code's ``capture_trace.py`` (docs/recordings.md, "Importing").

Such a trace wrote the response's blocks other than text and tool_use only as their
Python repr (``{"type": "unknown", "raw": "ThinkingBlock(…)"}``): a block that a later
request carries field by field (the program appended the response to its messages) is
taken from there; any other stays ``unknown`` with its text, and the page shows it raw. A
tool output the capture cut at 5,000 characters is taken whole from the next request's
tool_result when one holds it, else is marked ``cut``. The trace stores no working
folder: ``cwd`` gives the one the run had. Calls of threads that overlapped (numbered
when they began, listed when they ended) keep their start order (``started``).
"""

import json

from . import format as recording_format
from .schema import first_error

SOURCE = "learn-claude-code"
CUT_AT = 5000
_TRACE = {
    "type": "object", "required": ["cycles"],
    "properties": {
        "version": {"type": "string"}, "model": {"type": "string"},
        "cycles": {"type": "array", "items": {
            "type": "object", "required": ["request", "response"],
            "properties": {
                "elapsed_ms": {"type": "number", "minimum": 0},
                "request": {"type": "object", "required": ["messages"],
                            "properties": {"messages": {"type": "array"}}},
                "response": {"type": "object", "required": ["content"],
                             "properties": {"content": {"type": "array", "items": {
                                 "type": "object", "required": ["type"]}}}},
                "tool_executions": {"type": "array", "items": {
                    "type": "object", "required": ["name", "input", "output"],
                    "properties": {"name": {"type": "string"},
                                   "output": {"type": "string"}}}}}}}}}


class TraceError(ValueError):
    """Not a trace of this format: ``PATH: JSON PATH: reason``."""


def _assistant_contents(cycles, after):
    """The content lists of the assistant messages of the requests after cycle ``after``."""
    for cycle in cycles[after + 1:]:
        for message in cycle["request"]["messages"]:
            if isinstance(message, dict) and message.get("role") == "assistant" \
                    and isinstance(message.get("content"), list):
                yield message["content"]


def _same_known(block, written):
    if not isinstance(written, dict) or block["type"] != written.get("type"):
        return False
    keys = ("id",) if block["type"] == "tool_use" else ("text",)
    return all(block.get(k) == written.get(k) for k in keys)


def _rebuilt(content, cycles, index):
    """``content`` with its ``unknown`` blocks taken from a later request, where found."""
    if not any(block.get("type") == "unknown" for block in content):
        return content
    for written in _assistant_contents(cycles, index):
        if len(written) != len(content) or not all(
                block["type"] == "unknown" or _same_known(block, other)
                for block, other in zip(content, written)):
            continue
        return [({k: v for k, v in other.items() if v is not None}
                 if block["type"] == "unknown" and isinstance(other, dict) else block)
                for block, other in zip(content, written)]
    return content


def _result_text(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return None


def _whole_output(execution, response, cycles, index):
    """The tool output whole (and whether it is still cut)."""
    output = execution["output"]
    if len(output) < CUT_AT:
        return output, False
    ids = [block.get("id") for block in response["content"]
           if block.get("type") == "tool_use" and block.get("name") == execution["name"]
           and block.get("input") == execution["input"]]
    for cycle in cycles[index + 1:]:
        for message in cycle["request"]["messages"]:
            parts = message.get("content") if isinstance(message, dict) else None
            for part in parts if isinstance(parts, list) else ():
                if isinstance(part, dict) and part.get("type") == "tool_result" \
                        and part.get("tool_use_id") in ids:
                    text = _result_text(part.get("content"))
                    if text is not None and text.startswith(output) and len(text) > len(output):
                        return text, False
                    if text == output:
                        return output, True
    return output, True


def _started(cycles):
    """Per cycle, its place in the order the calls began, when they overlapped (threads),
    else None. The capture numbers a cycle when it begins (the calls ended so far, plus
    one) and lists it when it ends: numbers out of order, or repeated, mean overlap; calls
    numbered alike began in the order they ended."""
    numbers = [cycle.get("cycle") for cycle in cycles]
    if not all(isinstance(n, int) for n in numbers) or numbers == list(range(1, len(numbers) + 1)):
        return None
    order = sorted(range(len(cycles)), key=lambda at: (numbers[at], at))
    started = [0] * len(cycles)
    for place, at in enumerate(order, 1):
        started[at] = place
    return started


def convert(trace, where, cwd):
    """The recording of a learn-claude-code trace (already parsed); TraceError if it is not one."""
    found = first_error(trace, _TRACE)
    if found:
        raise TraceError(f"{where}: {found[0]}: {found[1]}")
    cycles = trace["cycles"]
    model = trace.get("model") or (cycles[0]["request"].get("model", "") if cycles else "")
    recording = recording_format.new(trace.get("version") or SOURCE, None, None, "anthropic",
                                     model, None, cwd, imported_from=SOURCE)
    started = _started(cycles)
    for index, cycle in enumerate(cycles):
        response = dict(cycle["response"])
        response["content"] = _rebuilt(response["content"], cycles, index)
        tools = []
        for execution in cycle.get("tool_executions", []):
            output, cut = _whole_output(execution, cycle["response"], cycles, index)
            tool = {"name": execution["name"], "input": execution["input"], "output": output}
            if cut:
                tool["cut"] = True
            tools.append(tool)
        call = {"request": cycle["request"], "response": response,
                "seconds": cycle.get("elapsed_ms", 0) / 1000, "tools": tools}
        if started:
            call["started"] = started[index]
        recording["calls"].append(call)
    return recording_format.check(recording, where)


def load(path, cwd):
    try:
        text = open(path, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as error:
        raise TraceError(f"{path}: $: cannot be read ({error})") from None
    deep = recording_format.too_deep(text)
    if deep is not None:
        raise TraceError(f"{path}: nested too deeply at {deep} (more than "
                         f"{recording_format.MAX_DEPTH} levels of arrays and objects)")
    try:
        trace = json.loads(text)
    except ValueError as error:
        raise TraceError(f"{path}: $: not JSON ({error})") from None
    return convert(trace, str(path), cwd)
