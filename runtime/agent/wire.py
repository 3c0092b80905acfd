"""The ``agent`` part of a trace in the packed form (docs/design.md, "Agent calls").

Calls repeat the history of their conversation, so a packed model call stores only
how many messages it shares with the previous call of the same conversation and
the pool indices of the new ones:

    "agent": {"conversations": [[DEPTH, PARENT], …],
              "messages": [MESSAGE, …],
              "calls": [[CONVERSATION, STEP, RET, SHARED, [NEW, …], STOP, RESPONSE, ERROR,
                         DIFFERS], …],
              "tools": [[STEP, RET, NAME, ID, INPUT, RESULT, ERROR, RETURNED, CUT,
                         RECORDED, SOURCE_CUT, STAND_IN, DIFFERS], …],
              "added": [STEP | None, …], "changed": [[STEP, KIND, POSITION] | None, …],   # as in the dict form
              "in_flight": [[STEP, CONVERSATION, THREAD, [ID, …]], …]}   # only when there are some

``in_flight``: the model calls a thread began and never got an answer for (in_flight.py);
its dict form adds each one's ``depth``, its conversation's.

A call leaves out DIFFERS when null (its first difference from the recording in a tolerant
replay; the dict form has the key ``differs`` only when set). A tool run leaves out its
trailing fields at their defaults: DIFFERS null, STAND_IN 0 (the dict form has ``differs``
and ``stand_in`` only when set), SOURCE_CUT null, RECORDED 0, CUT 0, and then RETURNED when the tool returned its RESULT's text (a tool that returns a
string returns its result), so that text is stored once. Reading, a missing RETURNED is
RESULT; a missing CUT, RECORDED or SOURCE_CUT is 0, 0, null. Only a text RESULT stands
for RETURNED: the fork editor (web/static/js/model/fork-url.js) reads the packed rows and
starts a tool's fork from a missing RETURNED as RESULT, its parts made API blocks.

``unpack(pack(agent)) == agent`` for every ``agent`` the recorder makes.
"""

# CUT, RECORDED, SOURCE_CUT, STAND_IN, DIFFERS when a packed tool run leaves them out
TAIL_DEFAULTS = [0, 0, None, 0, None]


def pack_tool(tool):
    """One tool run of the dict form as its packed row."""
    row = [tool["step"], tool["ret"], tool["name"], tool["id"], tool["input"], tool["result"],
           int(tool["error"])]
    tail = [int(tool["cut"]), int(tool["recorded"]), tool["source_cut"],
            int(tool.get("stand_in", False)), tool.get("differs")]
    while tail and tail[-1] == TAIL_DEFAULTS[len(tail) - 1]:
        tail.pop()
    if tail or not (type(tool["result"]) is str and tool["returned"] == tool["result"]):
        row.append(tool["returned"])
    return row + tail


def unpack_tool(row):
    """A packed tool row as its dict form."""
    step, ret, name, ident, data, result, error, *rest = row
    returned, cut, recorded, source_cut, stand_in, differs = \
        rest + [result, *TAIL_DEFAULTS][len(rest):]
    tool = {"step": step, "ret": ret, "name": name, "id": ident, "input": data, "result": result,
            "error": bool(error), "returned": returned, "cut": bool(cut),
            "recorded": bool(recorded), "source_cut": source_cut}
    if stand_in:
        tool["stand_in"] = True
    if differs is not None:
        tool["differs"] = differs
    return tool


def pack(agent):
    calls = []
    for call in agent["calls"]:
        ids = call["messages"]
        shared = len(ids) - call["new"]
        row = [call["conversation"], call["step"], call["ret"], shared, ids[shared:],
               call["stop_reason"], call["response"], call["error"]]
        if call.get("differs") is not None:
            row.append(call["differs"])
        calls.append(row)
    packed = {"conversations": [[c["depth"], c["parent"]] for c in agent["conversations"]],
              "messages": agent["messages"], "calls": calls,
              "tools": [pack_tool(t) for t in agent["tools"]],
              "added": agent["added"], "changed": agent["changed"]}
    if agent.get("in_flight"):
        packed["in_flight"] = [[c["step"], c["conversation"], c["thread"], c["messages"]]
                               for c in agent["in_flight"]]
    return packed


def unpack(packed):
    last = {}
    calls = []
    for conversation, step, ret, shared, new, stop, response, error, *differs in packed["calls"]:
        ids = last.get(conversation, [])[:shared] + new
        last[conversation] = ids
        calls.append({"step": step, "ret": ret, "conversation": conversation, "messages": ids,
                      "new": len(new), "stop_reason": stop, "response": response,
                      "error": error})
        if differs:
            calls[-1]["differs"] = differs[0]
    agent = {"conversations": [{"depth": d, "parent": p} for d, p in packed["conversations"]],
             "messages": packed["messages"], "calls": calls,
             "tools": [unpack_tool(row) for row in packed["tools"]],
             "added": packed["added"], "changed": packed["changed"]}
    if packed.get("in_flight"):
        agent["in_flight"] = [{"step": step, "conversation": c,
                               "depth": agent["conversations"][c]["depth"], "thread": thread,
                               "messages": ids} for step, c, thread, ids in packed["in_flight"]]
    return agent
