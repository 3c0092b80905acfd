#!/usr/bin/env python3
"""team.py — agent 团队：领队和每个队友各跑自己的 agent 循环，各占一个线程，靠收件箱传话。

    pip install anthropic
    python team.py

收件箱是 .team/inbox/NAME.jsonl：send 往对方的文件末尾追加一行，read 读出全部并清空。
队友做完手上的事就闲下来，每隔 POLL_SECONDS 查一次收件箱；连着 IDLE_POLLS 次没有新信就下线。
"""

import json
import threading
import time
from pathlib import Path

from anthropic import Anthropic

WORKDIR = Path.cwd()
client = Anthropic()
MODEL = "claude-sonnet-4-5"
INBOX_DIR = WORKDIR / ".team" / "inbox"
POLL_SECONDS = 2
IDLE_POLLS = 1


class MessageBus:
    """每个成员一个 JSONL 收件箱。"""

    def __init__(self):
        INBOX_DIR.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()

    def send(self, sender: str, to: str, content: str) -> str:
        with self.lock:
            with open(INBOX_DIR / f"{to}.jsonl", "a") as f:
                f.write(json.dumps({"from": sender, "content": content}, ensure_ascii=False) + "\n")
        return f"Sent to {to}"

    def read(self, name: str) -> list:
        path = INBOX_DIR / f"{name}.jsonl"
        with self.lock:
            if not path.exists():
                return []
            lines = path.read_text().splitlines()
            path.write_text("")
        return [json.loads(line) for line in lines]


BUS = MessageBus()
MEMBERS = {}   # 名字 → 状态：working / idle / offline


def add_text(messages: list, text: str):
    """把一段文字放进给模型的下一条用户消息。"""
    last = messages[-1]
    if last["role"] == "user":
        if isinstance(last["content"], str):
            last["content"] = [{"type": "text", "text": last["content"]}]
        last["content"].append({"type": "text", "text": text})
    else:
        messages.append({"role": "user", "content": [{"type": "text", "text": text}]})


TEAM_TOOLS = [
    {"name": "send_message", "description": "Send a message to a team member's inbox.",
     "input_schema": {"type": "object", "properties": {"to": {"type": "string"},
                                                       "content": {"type": "string"}},
                      "required": ["to", "content"]}},
    {"name": "read_file", "description": "Read a file of the workspace.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                      "required": ["path"]}},
]
LEAD_TOOLS = TEAM_TOOLS + [
    {"name": "spawn_teammate", "description": "Start a teammate with a role and a first task.",
     "input_schema": {"type": "object", "properties": {"name": {"type": "string"},
                                                       "role": {"type": "string"},
                                                       "prompt": {"type": "string"}},
                      "required": ["name", "role", "prompt"]}},
    {"name": "read_inbox", "description": "Read and empty the lead's inbox.",
     "input_schema": {"type": "object", "properties": {}}},
]


def run_tool(me: str, name: str, args: dict) -> str:
    if name == "send_message":
        return BUS.send(me, args["to"], args["content"])
    if name == "read_file":
        try:
            return (WORKDIR / args["path"]).read_text()[:50000]
        except OSError as e:
            return f"Error: {e}"
    if name == "spawn_teammate":
        return spawn(args["name"], args["role"], args["prompt"])
    if name == "read_inbox":
        return json.dumps(BUS.read(me), ensure_ascii=False)
    return f"Unknown tool: {name}"


def spawn(name: str, role: str, prompt: str) -> str:
    MEMBERS[name] = "working"
    thread = threading.Thread(target=teammate_loop, args=(name, role, prompt), name=name)
    thread.start()
    return f"Spawned {name} ({role})"


def teammate_loop(name: str, role: str, prompt: str):
    system = f"You are {name}, the team's {role}, at {WORKDIR}. Report to lead with send_message."
    messages = [{"role": "user", "content": prompt}]
    idle_polls = 0
    while True:
        inbox = BUS.read(name)
        if inbox:
            add_text(messages, f"<inbox>{json.dumps(inbox, ensure_ascii=False)}</inbox>")
            MEMBERS[name], idle_polls = "working", 0
        elif MEMBERS[name] == "idle":   # 没有新信：等一会儿再查，查够了就下线
            if idle_polls == IDLE_POLLS:
                break
            idle_polls += 1
            time.sleep(POLL_SECONDS)
            continue
        response = client.messages.create(
            model=MODEL, system=system, messages=messages,
            tools=TEAM_TOOLS, max_tokens=8000,
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            MEMBERS[name] = "idle"
            continue
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output = run_tool(name, block.name, block.input)
                print(f"  [{name}] {block.name}: {output[:60]}")
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": output})
        messages.append({"role": "user", "content": results})
    MEMBERS[name] = "offline"


def lead_loop(messages: list):
    system = f"You are the team lead at {WORKDIR}. Spawn teammates and coordinate them by message."
    while True:
        response = client.messages.create(
            model=MODEL, system=system, messages=messages,
            tools=LEAD_TOOLS, max_tokens=8000,
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output = run_tool("lead", block.name, block.input)
                print(f"> {block.name}: {output[:60]}")
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": output})
        messages.append({"role": "user", "content": results})


if __name__ == "__main__":
    history = []
    while True:
        try:
            query = input("s09 >> ")
        except (EOFError, KeyboardInterrupt):
            break
        if query.strip().lower() in ("q", "exit", ""):
            break
        history.append({"role": "user", "content": query})
        lead_loop(history)
        print("".join(b.text for b in history[-1]["content"] if b.type == "text"))
        print()
