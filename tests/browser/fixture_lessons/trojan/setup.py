# A model that answers with the text it was sent, reversed by an override.


def model(messages):
    return {"stop_reason": "end_turn",
            "content": [{"type": "text", "text": "ok \u202e" + messages[-1]["content"]}]}
