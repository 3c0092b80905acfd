"""Version 3 of the recording format: every message and request field stored once
(docs/recordings.md, "Version 3"; format.py reads and writes it).

In memory a recording is always whole — each call's ``request`` the body as sent, each
tool execution's ``output`` a text — whatever version its file has: ``expand`` makes a
version 3 document whole (in place), ``compact`` makes the version 3 document of a whole
recording. A version 3 call may hold:

- ``continues: {"call": J, "keep": K}``: its ``request.messages`` holds only the messages
  new since call J (numbered from 1, an earlier call): the whole list is call J's first K
  messages, then these;
- ``values: {FIELD: N}``: the request's FIELD (written ``null`` in its place, so the body
  keeps its key order) is the recording's ``values[N]`` — a system prompt, a tool list,
  stored once however many calls send it;
- a tool execution's ``sent: [CALL, MESSAGE, PART]`` instead of ``output``: its output is the
  tool result the run sent back, ``calls[CALL - 1].request.messages[MESSAGE]`` (its
  ``content[PART]`` for the Messages API; Chat Completions has no PART); a result that is
  not a text is the output as JSON text.

The whole lists share their message objects (call J's and call I's first K messages are
the same objects), so a whole recording in memory is linear in its file's size, and so
is reading the file. ``links`` finds each call's continuation from the message objects
themselves: shared objects compare at once, others by their JSON texts.
"""

import json
from operator import is_

from .normal import canonical

SHARED_MIN = 64   # a request field whose JSON text is at least this long is stored once
_COMPACT_KEYS = ("continues", "values")


def _text(value):
    return json.dumps(value, ensure_ascii=False)


def _same(a, b):
    """Whether two JSON values are the same, key order and types included (equal JSON
    texts), in time proportional to their items, not their texts' length."""
    return a is b or (a == b and _exact(a, b))


def _exact(a, b):
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        return list(a) == list(b) and all(_exact(a[key], b[key]) for key in a)
    if kind is list:
        return len(a) == len(b) and all(map(_exact, a, b))
    if kind is float:
        return canonical(a) == canonical(b)
    return a == b


def _common(old, new):
    """How many leading messages lists ``old`` and ``new`` share."""
    if len(old) <= len(new) and all(map(is_, old, new)):   # shared objects: at C speed
        return len(old)
    count = 0
    for a, b in zip(old, new):
        if a is not b and not _same(a, b):
            break
        count += 1
    return count


def links(requests):
    """Per request (bodies, in order): ``(J, K)`` — it continues request J (numbered from 1)
    whose first K messages it starts with — or None (it shares no first message with the
    last request of any conversation before it). A request continuing a conversation whole
    is that conversation's next; one sharing only a part of one (a history cut short or
    edited) continues it from that part."""
    last = []     # per conversation: the number of its last request
    found = []
    for number, request in enumerate(requests, 1):
        messages = request.get("messages") if isinstance(request, dict) else None
        best = None
        if isinstance(messages, list) and messages:
            for at in range(len(last) - 1, -1, -1):
                old = requests[last[at] - 1].get("messages")
                if not isinstance(old, list) or not old or \
                        (old[0] is not messages[0] and not _same(old[0], messages[0])):
                    continue
                keep = _common(old, messages)
                if best is None or keep > best[2]:
                    best = (at, last[at], keep)
                if keep == len(old):
                    break
        if best is None:
            last.append(number)
            found.append(None)
            continue
        last[best[0]] = number
        found.append((best[1], best[2]))
    return found


def compact(recording):
    """The version 3 document of a whole recording (a new dict; ``recording`` unchanged)."""
    calls = recording["calls"]
    requests = [call["request"] for call in calls]
    values, value_at = [], {}
    out_calls = []
    found = links(requests)
    results = _result_places(recording["provider"], requests, found)
    for call, link in zip(calls, found):
        request, entry = {}, {}
        shared = {}
        for key, value in call["request"].items():
            if key == "messages" and link is not None and isinstance(value, list):
                request[key] = value[link[1]:]
                entry["continues"] = {"call": link[0], "keep": link[1]}
                continue
            if key != "messages" and value is not None:
                text = _text(value)
                if len(text) >= SHARED_MIN:
                    if text not in value_at:
                        value_at[text] = len(values)
                        values.append(value)
                    shared[key] = value_at[text]
                    request[key] = None
                    continue
            request[key] = value
        entry = {"request": request, **entry}
        if shared:
            entry["values"] = shared
        rest = {k: v for k, v in call.items() if k not in ("request", "tools")}
        entry.update(rest)
        entry["tools"] = [_tool(tool, results) for tool in call["tools"]]
        out_calls.append(entry)
    head = {k: v for k, v in recording.items() if k != "calls"}
    head["version"] = 3
    if values:
        head["values"] = values
    head["calls"] = out_calls
    return head


def _result_places(provider, requests, found):
    """{output text: [call, message, part?]} of the tool results the requests
    send, each looked at once: in the messages new in its request."""
    places = {}
    for number, (request, link) in enumerate(zip(requests, found), 1):
        messages = request.get("messages") if isinstance(request, dict) else None
        if not isinstance(messages, list):
            continue
        for index in range(link[1] if link else 0, len(messages)):
            message = messages[index]
            if not isinstance(message, dict):
                continue
            if provider == "openai":
                if message.get("role") == "tool":
                    _place(places, message.get("content"), [number, index])
                continue
            content = message.get("content")
            for part_at, part in enumerate(content if isinstance(content, list) else ()):
                if isinstance(part, dict) and part.get("type") == "tool_result":
                    _place(places, part.get("content"), [number, index, part_at])
    return places


def _output_text(content):
    return content if isinstance(content, str) else _text(content)


def _place(places, content, where):
    if content is None:
        return
    places.setdefault(_output_text(content), where)


def _tool(tool, places):
    where = places.get(tool.get("output")) if isinstance(tool.get("output"), str) else None
    if where is None or len(tool["output"]) < SHARED_MIN:
        return dict(tool)
    out = {k: v for k, v in tool.items() if k != "output"}
    out["sent"] = list(where)
    return out


def sent_output(calls, provider, where):
    """The output a tool execution's ``sent`` names, or None when there is none there."""
    number, index = where[0], where[1]
    if not 1 <= number <= len(calls):
        return None
    messages = calls[number - 1]["request"].get("messages")
    if not isinstance(messages, list) or not 0 <= index < len(messages):
        return None
    message = messages[index]
    if not isinstance(message, dict):
        return None
    if provider == "openai":
        content = message.get("content") if message.get("role") == "tool" else None
    else:
        parts = message.get("content")
        part = parts[where[2]] if len(where) == 3 and isinstance(parts, list) and \
            0 <= where[2] < len(parts) else None
        content = part.get("content") if isinstance(part, dict) and \
            part.get("type") == "tool_result" else None
    return None if content is None else _output_text(content)


def problem(value):
    """``(JSON path, reason)`` of the first reference of a version 3 document that leads
    nowhere, or None (the schema checked its shape)."""
    values = value.get("values", [])
    calls = value["calls"]
    lengths = []
    for index, call in enumerate(calls):
        path = f"$.calls[{index}]"
        messages = call["request"]["messages"]
        link = call.get("continues")
        if link is not None:
            if not 1 <= link["call"] <= index:
                return f"{path}.continues.call", f"must be an earlier call (1 to {index})"
            if link["keep"] > lengths[link["call"] - 1]:
                return f"{path}.continues.keep", \
                    f"call {link['call']} sent {lengths[link['call'] - 1]} messages"
        lengths.append(len(messages) + (link["keep"] if link else 0))
        for key, at in (call.get("values") or {}).items():
            if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at < len(values):
                return f"{path}.values.{key}", f"must be an index of $.values (0 to " \
                                               f"{len(values) - 1})"
            if call["request"].get(key, 0) is not None:
                return f"{path}.request.{key}", "must be null: its value is in $.values"
        for at, tool in enumerate(call["tools"]):
            if "output" not in tool and "sent" not in tool:
                return f"{path}.tools[{at}]", "missing 'output'"
    return None


def old_keys(value):
    """``(JSON path, reason)`` of a version 3 key in a version 1 or 2 document, or None."""
    if "values" in value:
        return "$.values", "only version 3 has it"
    for index, call in enumerate(value["calls"]):
        for key in _COMPACT_KEYS:
            if key in call:
                return f"$.calls[{index}].{key}", "only version 3 has it"
        for at, tool in enumerate(call["tools"]):
            if "sent" in tool:
                return f"$.calls[{index}].tools[{at}].sent", "only version 3 has it"
            if "output" not in tool:
                return f"$.calls[{index}].tools[{at}]", "missing 'output'"
    return None


def expand(value):
    """A checked version 3 document made whole, in place (``value`` itself); the places its
    ``sent`` name must hold tool results (RecordingError's reason otherwise, as
    ``(JSON path, reason)``: returned, not raised)."""
    values = value.pop("values", [])
    calls = value["calls"]
    for call in calls:
        request = call["request"]
        link = call.pop("continues", None)
        shared = call.pop("values", None) or {}
        if link is None and not shared:
            continue
        whole = {}
        for key, item in request.items():
            if key in shared:
                item = values[shared[key]]
            elif key == "messages" and link is not None:
                item = calls[link["call"] - 1]["request"]["messages"][:link["keep"]] + item
            whole[key] = item
        call["request"] = whole
    for index, call in enumerate(calls):
        for at, tool in enumerate(call["tools"]):
            if "sent" not in tool:
                continue
            output = sent_output(calls, value["provider"], tool["sent"])
            if output is None:
                return (f"$.calls[{index}].tools[{at}].sent",
                        "names no tool result the run sent")
            whole = {}
            for key, item in tool.items():
                if key == "sent":
                    key, item = "output", output
                whole[key] = item
            call["tools"][at] = whole
    return None


def distinct_bytes(recording):
    """The run's distinct content in bytes (UTF-8 JSON): every distinct message, request
    field, response and tool execution of a whole recording once (a tool's output once
    more only when the run never sent it back)."""
    seen_ids, seen = set(), set()
    total = 0
    sent_back = set()

    def count(value):
        nonlocal total
        if id(value) in seen_ids:
            return
        seen_ids.add(id(value))
        text = _text(value)
        if text not in seen:
            seen.add(text)
            total += len(text.encode())

    keep = []   # the values whose ids are in seen_ids stay alive
    for call in recording["calls"]:
        for key, value in call["request"].items():
            if key == "messages" and isinstance(value, list):
                for message in value:
                    keep.append(message)
                    if id(message) not in seen_ids:
                        _results(message, sent_back)
                    count(message)
            else:
                pair = {key: value}
                keep.append(pair)
                count(pair)
        keep.append(call["response"])
        count(call["response"])
    for call in recording["calls"]:   # the results a later request sent back: known now
        for tool in call["tools"]:
            short = {k: v for k, v in tool.items() if k != "output"}
            keep.append(short)
            count(short)
            if tool["output"] not in sent_back:
                keep.append(tool["output"])
                count(tool["output"])
    return total


def _results(message, found):
    if not isinstance(message, dict):
        return
    if message.get("role") == "tool" and message.get("content") is not None:
        found.add(_output_text(message["content"]))
    content = message.get("content")
    for part in content if isinstance(content, list) else ():
        if isinstance(part, dict) and part.get("type") == "tool_result" and \
                part.get("content") is not None:
            found.add(_output_text(part["content"]))
