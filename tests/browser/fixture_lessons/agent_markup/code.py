def chat(question):
    messages = [{"role": "user", "content": question}]
    reply = model(messages)
    messages.append({"role": "assistant", "content": reply["content"]})
    result = tool(reply["content"][1])
    messages.append({"role": "user", "content": [result]})
    reply = model(messages)
    return reply["content"][0]["text"]
