"""Programs written against the real SDKs that more than one test file runs on the
stand-ins (runtime/standins/) or records (runtime/recording/)."""

# an agent loop on the OpenAI SDK's Chat Completions, its one tool listing a folder
OPENAI_LOOP = '''from openai import OpenAI
import json
client = OpenAI()
TOOLS = {"ls": lambda path: ",".join(sorted(__import__("os").listdir(path)))}


def main(question):
    messages = [{"role": "user", "content": question}]
    while True:
        choice = client.chat.completions.create(model="gpt-x", messages=messages).choices[0]
        messages.append(choice.message)
        if choice.finish_reason != "tool_calls":
            return choice.message.content
        for call in choice.message.tool_calls:
            output = TOOLS[call.function.name](**json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": output})
'''
