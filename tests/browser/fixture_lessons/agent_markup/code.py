def chat(question):
    messages = [{"role": "user", "content": question}]
    reply = model(messages)
    messages.append({"role": "assistant", "content": reply["content"]})
    result = tool(reply["content"][1])
    messages.append({"role": "user", "content": [result]})
    reply = model(messages)
    return reply["content"][0]["text"]


def long_chat(question, rounds):
    messages = [{"role": "user", "content": question}]
    for turn in range(rounds):
        messages.append({"role": "assistant", "content": f"turn {turn}"})
        messages.append({"role": "user", "content": f"more {turn}"})
        model(messages)
    return len(messages)
