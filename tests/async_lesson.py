"""An async agent lesson, written into a lessons directory of a test's own: an
``AsyncAnthropic`` client (the ``[standins]`` stand-in) awaited in a loop that runs the
model's two tool calls at once with ``asyncio.gather``, under ``asyncio.run``."""
from pathlib import Path

SOURCE = '''"""An agent whose tools run concurrently."""
import asyncio

import anthropic

client = anthropic.AsyncAnthropic()


async def read_file(path):
    await asyncio.sleep(0.5)
    text = f"contents of {path}"
    return text


async def count_words(text):
    await asyncio.sleep(0.2)
    words = len(text.split())
    return str(words)


async def run_tool(block):
    handler = TOOLS[block.name]
    output = await handler(**block.input)
    return {"type": "tool_result", "tool_use_id": block.id, "content": output}


async def agent_loop(task):
    messages = [{"role": "user", "content": task}]
    while True:
        response = await client.messages.create(
            model="claude-sonnet-4-5", max_tokens=1000, messages=messages)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return response.content[0].text
        first, second = [b for b in response.content if b.type == "tool_use"]
        results = await asyncio.gather(run_tool(first), run_tool(second))
        messages.append({"role": "user", "content": list(results)})


TOOLS = {"read_file": read_file, "count_words": count_words}
'''
SETUP = '''TASK = "Read notes.txt and count the words of a line."


def reply(messages, **request):
    if len(messages) == 1:
        return [{"type": "tool_use", "name": "read_file", "input": {"path": "notes.txt"}},
                {"type": "tool_use", "name": "count_words", "input": {"text": "one two three"}}]
    return "notes.txt read; the line has 3 words."
'''
ENTRY = "print(asyncio.run(agent_loop(TASK)))\n"
TOML = f'''
title = {{zh = "异步 agent", en = "An async agent"}}
summary = {{zh = "两个工具并发运行。", en = "Two tools run at once."}}
setup = "aagent/setup.py"
modules = ["aagent/agent.py"]

[standins]
modules = ["anthropic"]
model = "reply"

[agent]
tools = ["TOOLS"]

[[presets]]
name = "both"
zh = "两个工具"
en = "Both tools"

[[blocks]]
symbol = "agent_loop"
source = "aagent/agent.py"
entry = """{ENTRY}"""

[[blocks]]
id = "tools"
symbols = ["agent_loop", "run_tool", "read_file", "count_words"]
source = "aagent/agent.py"
entry = """{ENTRY}"""
'''
# asyncio's tools on the run's clock, in a lesson without [standins]
TOOLS_SOURCE = '''import asyncio


async def producer(queue, ready, lock, log):
    async with lock:
        log.append("producing")
        await asyncio.sleep(1)
    for item in range(3):
        await queue.put(item)
    ready.set()


async def consumer(queue, ready, log):
    await ready.wait()
    while not queue.empty():
        item = await queue.get()
        log.append(item)


async def slow():
    await asyncio.sleep(60)
    return "late"


def noted(log):
    log.append("noted")


async def main():
    queue, ready, lock, log = asyncio.Queue(), asyncio.Event(), asyncio.Lock(), []
    started = asyncio.get_running_loop().time()
    asyncio.get_running_loop().call_soon(noted, log)
    async with asyncio.TaskGroup() as group:
        group.create_task(consumer(queue, ready, log))
        group.create_task(producer(queue, ready, lock, log))
    waiter = asyncio.create_task(slow())
    try:
        async with asyncio.timeout(2):
            await waiter
    except TimeoutError:
        log.append("timed out")
    try:
        await asyncio.wait_for(slow(), 0.5)
    except TimeoutError:
        log.append("gave up")
    elapsed = asyncio.get_running_loop().time() - started
    return log, round(elapsed, 3)


async def stuck():
    never = asyncio.Event()
    await never.wait()
'''
TOOLS_TOML = '''
title = {zh = "asyncio 工具", en = "asyncio tools"}
summary = {zh = "队列、事件、锁、超时。", en = "Queues, events, locks, timeouts."}
setup = "atools/setup.py"
modules = ["atools/tools.py"]

[[presets]]
name = "normal"
zh = "普通"
en = "Normal"

[[blocks]]
id = "all"
symbols = ["main", "producer", "consumer", "slow", "noted"]
source = "atools/tools.py"
entry = "print(asyncio.run(main()))\\n"

[[blocks]]
symbol = "stuck"
source = "atools/tools.py"
entry = "asyncio.run(stuck())\\n"
'''
# subagents as tasks: the parent's model call asks for two, gathered at once
SUB_SOURCE = '''import asyncio

import anthropic

client = anthropic.AsyncAnthropic()


async def subagent(prompt):
    messages = [{"role": "user", "content": prompt}]
    response = await client.messages.create(model="m", max_tokens=100, messages=messages)
    return response.content[0].text


async def agent_loop(task):
    messages = [{"role": "user", "content": task}]
    response = await client.messages.create(model="m", max_tokens=100, messages=messages)
    prompts = [b.input["prompt"] for b in response.content if b.type == "tool_use"]
    answers = await asyncio.gather(*[subagent(prompt) for prompt in prompts])
    return " / ".join(answers)
'''
SUB_SETUP = '''def reply(messages, **request):
    first = messages[0]["content"]
    if first.startswith("Split"):
        return [{"type": "tool_use", "name": "task", "input": {"prompt": "read a"}},
                {"type": "tool_use", "name": "task", "input": {"prompt": "read b"}}]
    return f"done: {first}"
'''
SUB_TOML = '''
title = {zh = "并发子 agent", en = "Subagents at once"}
summary = {zh = "两个子 agent 并发。", en = "Two subagents at once."}
setup = "asub/setup.py"
modules = ["asub/agent.py"]

[standins]
modules = ["anthropic"]
model = "reply"

[[presets]]
name = "split"
zh = "分工"
en = "Split"

[[blocks]]
id = "both"
symbols = ["agent_loop", "subagent"]
source = "asub/agent.py"
entry = "print(asyncio.run(agent_loop('Split the work')))\\n"
'''
# two tasks gathered: one waits for an event the other sets after a sleep; the second named
TASKS_SOURCE = '''import asyncio


async def waiter(ready, log):
    await asyncio.sleep(0.5)
    log.append("waiting")
    await ready.wait()
    log.append("woken")


async def sleeper(ready, log):
    await asyncio.sleep(1.5)
    log.append("slept")
    ready.set()


async def main():
    ready, log = asyncio.Event(), []
    first = asyncio.create_task(waiter(ready, log))
    second = asyncio.create_task(sleeper(ready, log), name="sleeper")
    await asyncio.gather(first, second)
    return log
'''
TASKS_TOML = '''
title = {zh = "两个任务", en = "Two tasks"}
summary = {zh = "gather 两个任务。", en = "Two tasks gathered."}
setup = "atasks/setup.py"
modules = ["atasks/tasks.py"]

[[presets]]
name = "normal"
zh = "普通"
en = "Normal"

[[blocks]]
id = "main"
symbols = ["main", "waiter", "sleeper"]
source = "atasks/tasks.py"
entry = "print(asyncio.run(main()))\\n"
'''
LINES = SOURCE.split("\n")


def line_of(text):
    """The file line (1-based) whose text, stripped, is `text`."""
    return next(k + 1 for k, line in enumerate(LINES) if line.strip() == text)


def make_lesson(root: Path, toml: str = TOML, source: str = SOURCE) -> Path:
    """Write the lessons `aagent`, `atools`, `asub` and `atasks` into the lessons directory `root`;
    returns `root`."""
    folder = root / "aagent"
    folder.mkdir(parents=True)
    (folder / "lesson.toml").write_text(toml, encoding="utf-8")
    (folder / "agent.py").write_text(source, encoding="utf-8")
    (folder / "setup.py").write_text(SETUP, encoding="utf-8")
    tools = root / "atools"
    tools.mkdir()
    (tools / "lesson.toml").write_text(TOOLS_TOML, encoding="utf-8")
    (tools / "tools.py").write_text(TOOLS_SOURCE, encoding="utf-8")
    (tools / "setup.py").write_text("", encoding="utf-8")
    sub = root / "asub"
    sub.mkdir()
    (sub / "lesson.toml").write_text(SUB_TOML, encoding="utf-8")
    (sub / "agent.py").write_text(SUB_SOURCE, encoding="utf-8")
    (sub / "setup.py").write_text(SUB_SETUP, encoding="utf-8")
    two = root / "atasks"
    two.mkdir()
    (two / "lesson.toml").write_text(TASKS_TOML, encoding="utf-8")
    (two / "tasks.py").write_text(TASKS_SOURCE, encoding="utf-8")
    (two / "setup.py").write_text("", encoding="utf-8")
    return root
