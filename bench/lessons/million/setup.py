# Three statements per round (the loop test, two assignments), plus call and return.
ROUNDS = 333_333


def model(messages):
    """Declared as a model call (lesson.toml [agent]) and never called: the cost of
    watching for calls in a long run."""
    return {"stop_reason": "end_turn", "content": []}
