"""The ``agent`` part of a trace in the packed form (docs/design.md, "Agent calls").

Calls repeat the history of their conversation, so a packed model call stores only
how many messages it shares with the previous call of the same conversation and
the pool indices of the new ones:

    "agent": {"conversations": [[DEPTH, PARENT], …],
              "messages": [MESSAGE, …],
              "calls": [[CONVERSATION, STEP, RET, SHARED, [NEW, …], STOP, RESPONSE, ERROR], …],
              "tools": [[STEP, RET, NAME, ID, INPUT, RESULT, ERROR, RETURNED, CUT,
                         RECORDED, SOURCE_CUT], …],
              "added": [STEP | None, …], "changed": [[STEP, KIND, POSITION] | None, …]}   # as in the dict form

``unpack(pack(agent)) == agent`` for every ``agent`` the recorder makes.
"""


def pack(agent):
    calls = []
    for call in agent["calls"]:
        ids = call["messages"]
        shared = len(ids) - call["new"]
        calls.append([call["conversation"], call["step"], call["ret"], shared, ids[shared:],
                      call["stop_reason"], call["response"], call["error"]])
    tools = [[t["step"], t["ret"], t["name"], t["id"], t["input"], t["result"], int(t["error"]),
              t["returned"], int(t["cut"]), int(t["recorded"]), t["source_cut"]]
             for t in agent["tools"]]
    return {"conversations": [[c["depth"], c["parent"]] for c in agent["conversations"]],
            "messages": agent["messages"], "calls": calls, "tools": tools,
            "added": agent["added"], "changed": agent["changed"]}


def unpack(packed):
    last = {}
    calls = []
    for conversation, step, ret, shared, new, stop, response, error in packed["calls"]:
        ids = last.get(conversation, [])[:shared] + new
        last[conversation] = ids
        calls.append({"step": step, "ret": ret, "conversation": conversation, "messages": ids,
                      "new": len(new), "stop_reason": stop, "response": response,
                      "error": error})
    tools = [{"step": s, "ret": r, "name": n, "id": i, "input": d, "result": res,
              "error": bool(e), "returned": value, "cut": bool(c),
              "recorded": bool(recorded[0]) if recorded else False,
              "source_cut": recorded[1] if len(recorded) > 1 else None}
             for s, r, n, i, d, res, e, value, c, *recorded in packed["tools"]]
    return {"conversations": [{"depth": d, "parent": p} for d, p in packed["conversations"]],
            "messages": packed["messages"], "calls": calls, "tools": tools,
            "added": packed["added"], "changed": packed["changed"]}
