# A model whose messages carry markup: the page must show it as text.
MARKUP = '<img src=x onerror="document.body.dataset.pwned=1"><b>bold</b>'


def model(messages):
    if len(messages) == 1:
        return {"stop_reason": "tool_use",
                "content": [{"type": "text", "text": MARKUP},
                            {"type": "tool_use", "id": "t<1>", "name": "<script>", "input": {"html": MARKUP}}]}
    return {"stop_reason": "end_turn", "content": [{"type": "text", "text": MARKUP}]}


def tool(call):
    return {"type": "tool_result", "tool_use_id": call["id"], "content": MARKUP, "is_error": True}
