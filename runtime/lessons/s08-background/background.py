#!/usr/bin/env python3
"""background.py — 后台任务：慢命令放进线程里跑，agent 循环照常和模型对话。

    pip install anthropic
    python background.py

background_run 立刻交回一个任务 id，命令在自己的线程里跑；跑完的结果排进通知队列。
每次调用模型之前，循环先取走队列里的通知，作为一段文字放进最后一条用户消息。
"""

import queue
import subprocess
import threading
from pathlib import Path

from anthropic import Anthropic

WORKDIR = Path.cwd()
client = Anthropic()
MODEL = "claude-sonnet-4-5"
SYSTEM = (f"You are a coding agent at {WORKDIR}. "
          "Run slow commands with background_run and keep working meanwhile.")


class BackgroundTasks:
    """后台任务表：每个任务一个线程，跑完的结果进通知队列。"""

    def __init__(self):
        self.tasks = {}
        self.lock = threading.Lock()
        self.notifications = queue.Queue()

    def run(self, command: str) -> str:
        task_id = f"bg{len(self.tasks) + 1}"
        self.tasks[task_id] = {"command": command, "status": "running", "output": None}
        thread = threading.Thread(target=self._execute, args=(task_id, command),
                                  name=task_id, daemon=True)
        thread.start()
        return f"Started {task_id} in the background: {command}"

    def _execute(self, task_id: str, command: str):
        try:
            r = subprocess.run(command, shell=True, cwd=WORKDIR,
                               capture_output=True, text=True, timeout=300)
            status, output = "done", (r.stdout + r.stderr).strip() or "(no output)"
        except subprocess.TimeoutExpired:
            status, output = "timeout", "Error: Timeout (300s)"
        with self.lock:
            self.tasks[task_id].update(status=status, output=output)
        self.notifications.put(f"[{task_id}] {status}: {output[:500]}")

    def check(self, task_id: str) -> str:
        with self.lock:
            task = self.tasks.get(task_id)
            if task is None:
                return f"Error: unknown task {task_id}"
            return f"{task_id} [{task['status']}] {task['output'] or '(still running)'}"

    def drain(self) -> list:
        notes = []
        while not self.notifications.empty():
            notes.append(self.notifications.get())
        return notes


BG = BackgroundTasks()


def run_read(path: str) -> str:
    try:
        return (WORKDIR / path).read_text()[:50000]
    except OSError as e:
        return f"Error: {e}"


TOOLS = [
    {"name": "background_run", "description": "Start a shell command in the background.",
     "input_schema": {"type": "object", "properties": {"command": {"type": "string"}},
                      "required": ["command"]}},
    {"name": "check_background", "description": "The status of a background task.",
     "input_schema": {"type": "object", "properties": {"task_id": {"type": "string"}},
                      "required": ["task_id"]}},
    {"name": "read_file", "description": "Read a file of the workspace.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                      "required": ["path"]}},
]

TOOL_HANDLERS = {
    "background_run":   lambda **kw: BG.run(kw["command"]),
    "check_background": lambda **kw: BG.check(kw["task_id"]),
    "read_file":        lambda **kw: run_read(kw["path"]),
}


def agent_loop(messages: list):
    while True:
        notes = BG.drain()
        if notes:   # 跑完的后台任务：在下一次调用模型之前告诉它
            text = "<background-results>\n" + "\n".join(notes) + "\n</background-results>"
            last = messages[-1]
            if isinstance(last["content"], str):
                last["content"] = [{"type": "text", "text": last["content"]}]
            last["content"].append({"type": "text", "text": text})
        response = client.messages.create(
            model=MODEL, system=SYSTEM, messages=messages,
            tools=TOOLS, max_tokens=8000,
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        results = []
        for block in response.content:
            if block.type == "tool_use":
                handler = TOOL_HANDLERS.get(block.name)
                output = handler(**block.input) if handler else f"Unknown tool: {block.name}"
                print(f"> {block.name}: {output[:80]}")
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": output})
        messages.append({"role": "user", "content": results})


if __name__ == "__main__":
    history = []
    while True:
        try:
            query = input("s08 >> ")
        except (EOFError, KeyboardInterrupt):
            break
        if query.strip().lower() in ("q", "exit", ""):
            break
        history.append({"role": "user", "content": query})
        agent_loop(history)
        print("".join(b.text for b in history[-1]["content"] if b.type == "text"))
        print()
