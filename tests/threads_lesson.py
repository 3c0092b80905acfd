"""Programs for the scheduler's tests (runtime/world/schedule.py): one per primitive of
``threading``, ``queue`` and ``concurrent.futures``, each a lesson whose block ``main``
prints what the threads did. ``PROGRAMS`` is (name, code of ``main``, the output of every
run under the default schedule); CPython's tests (tests/test_threads.py) and the
Pyodide test read it."""

import textwrap

import world_lesson

PROGRAMS = [
    ("lock", """
        lock = threading.Lock()
        seen = []
        def worker(name):
            for i in range(2):
                with lock:
                    seen.append(f"{name}{i}+")
                    time.sleep(0.1)
                    seen.append(f"{name}{i}-")
        ts = [threading.Thread(target=worker, args=(n,)) for n in "ab"]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        print(seen, lock.locked())
    """, "['a0+', 'a0-', 'b0+', 'b0-', 'a1+', 'a1-', 'b1+', 'b1-'] False"),
    ("rlock", """
        lock = threading.RLock()
        seen = []
        def nested(name):
            with lock:
                with lock:
                    seen.append(name)
                    time.sleep(0.1)
            seen.append(name + " out")
        ts = [threading.Thread(target=nested, args=(n,)) for n in "ab"]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        print(seen)
    """, "['a', 'a out', 'b', 'b out']"),
    ("event", """
        ready = threading.Event()
        def waiter(name):
            print(name, "waits at", time.monotonic())
            ready.wait()
            print(name, "woke at", round(time.monotonic(), 3))
        for n in "ab":
            threading.Thread(target=waiter, args=(n,)).start()
        time.sleep(2)
        ready.set()
        print("timed out:", not threading.Event().wait(0.5))
    """, "a waits at 0.0\nb waits at 0.001\na woke at 2.0\nb woke at 2.001\ntimed out: True"),
    ("condition", """
        items = []
        cond = threading.Condition()
        def consumer():
            with cond:
                cond.wait_for(lambda: len(items) >= 2)
                print("consumer got", items)
        def producer():
            for i in range(3):
                time.sleep(1)
                with cond:
                    items.append(i)
                    cond.notify_all()
                    print("produced", i)
        c = threading.Thread(target=consumer)
        p = threading.Thread(target=producer)
        c.start()
        p.start()
        c.join()
        p.join()
        with cond:
            print("wait timed out:", cond.wait(0.25) is False)
    """, "produced 0\nproduced 1\nconsumer got [0, 1]\nproduced 2\nwait timed out: True"),
    ("semaphore", """
        slots = threading.Semaphore(2)
        order = []
        def job(n):
            with slots:
                order.append(f"in{n}")
                time.sleep(1)
                order.append(f"out{n}")
        ts = [threading.Thread(target=job, args=(n,)) for n in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        print(order)
        print(threading.BoundedSemaphore(1).acquire(timeout=0.1))
    """, "['in0', 'in1', 'out0', 'out1', 'in2', 'in3', 'out2', 'out3']\nTrue"),
    ("barrier", """
        barrier = threading.Barrier(3)
        def party(n):
            time.sleep(n)
            i = barrier.wait()
            print(n, "passed at", round(time.monotonic()), "index", i)
        ts = [threading.Thread(target=party, args=(n,)) for n in range(3)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    """, "2 passed at 2 index 2\n0 passed at 2 index 0\n1 passed at 2 index 1"),
    ("timer", """
        fired = []
        t1 = threading.Timer(0.5, fired.append, args=["t1"])
        t2 = threading.Timer(0.2, fired.append, args=["t2"])
        t3 = threading.Timer(0.3, fired.append, args=["t3"])
        for t in (t1, t2, t3):
            t.start()
        t3.cancel()
        t1.join()
        print(fired, round(time.monotonic(), 1), t1.name)
    """, "['t2', 't1'] 0.5 Thread-1"),
    ("local", """
        data = threading.local()
        data.x = "main"
        seen = []
        def worker(n):
            data.x = n
            time.sleep(0.1)
            seen.append((n, data.x))
        ts = [threading.Thread(target=worker, args=(n,)) for n in range(3)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        print(seen, data.x)
    """, "[(0, 0), (1, 1), (2, 2)] main"),
    ("queue", """
        jobs = queue.Queue(maxsize=1)
        def producer():
            for i in range(3):
                jobs.put(i)
                print("put", i)
            jobs.put(None)
        threading.Thread(target=producer).start()
        while (item := jobs.get()) is not None:
            print("got", item)
        try:
            jobs.get(timeout=1.5)
        except queue.Empty:
            print("empty after", round(time.monotonic(), 1))
    """, "put 0\ngot 0\nput 1\ngot 1\nput 2\ngot 2\nempty after 1.5"),
    ("simple_queue", """
        q = queue.SimpleQueue()
        def worker(n):
            time.sleep(n / 10)
            q.put(n)
        for n in (3, 1, 2):
            threading.Thread(target=worker, args=(n,)).start()
        print([q.get() for _ in range(3)])
    """, "[1, 2, 3]"),
    ("executor", """
        from concurrent.futures import ThreadPoolExecutor, as_completed
        def work(n):
            time.sleep(n)
            return n * 10, threading.current_thread().name
        with ThreadPoolExecutor(max_workers=2) as pool:
            futures = [pool.submit(work, n) for n in (3, 1, 2)]
            print([f.result() for f in as_completed(futures)])
            print(list(pool.map(work, [1, 1])))
    """, "[(10, 'ThreadPoolExecutor-0_1'), (30, 'ThreadPoolExecutor-0_0'), "
         "(20, 'ThreadPoolExecutor-0_1')]\n"
         "[(10, 'ThreadPoolExecutor-0_0'), (10, 'ThreadPoolExecutor-0_1')]"),
    ("join_and_daemon", """
        def slow():
            time.sleep(10)
            print("slow done")
        forever = threading.Event()
        t = threading.Thread(target=slow, name="slow", daemon=True)
        t.start()
        t.join(timeout=1)
        print(t.is_alive(), t.daemon, t.name, round(time.monotonic()))
        w = threading.Thread(target=forever.wait, name="waiter", daemon=True)
        w.start()
        print(threading.active_count(), [x.name for x in threading.enumerate()])
    """, "True True slow 1\n3 ['MainThread', 'slow', 'waiter']"),
    ("thread_error", """
        def boom():
            raise ValueError("in a thread")
        t = threading.Thread(target=boom, name="boomer")
        t.start()
        t.join()
        print("main goes on", t.is_alive())
    """, "Exception in thread boomer:\nTraceback (most recent call last):\n"
         "  File \"thread_error/code.py\", line 8, in boom\n"
         "    raise ValueError(\"in a thread\")\nValueError: in a thread\nmain goes on False"),
    ("subclass", """
        class Counter(threading.Thread):
            def __init__(self, n):
                super().__init__(name=f"counter-{n}")
                self.n, self.total = n, 0
            def run(self):
                for i in range(self.n):
                    self.total += i
                    time.sleep(0)
        ts = Counter(3), Counter(4)   # no comprehension: 3.11 gives it a frame
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        print([(t.name, t.total) for t in ts], threading.current_thread().name)
    """, "[('counter-3', 3), ('counter-4', 6)] MainThread"),
]

HEADER = "import threading\nimport time\nimport queue\n\n\ndef main():\n"


def code_of(body):
    return HEADER + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"


def write_all(root):
    """Each program as lesson NAME (block ``main``, entry ``main()``)."""
    for name, body, _shown in PROGRAMS:
        world_lesson.write(root, name, code_of(body), entry="main()")


# A two-thread agent: a tool runs its command in a background thread, whose result the
# loop reads from a queue before its next model call (what the course's s08 teaches).
AGENT_SOURCE = '''"""An agent whose command runs in the background."""
import queue
import subprocess
import threading

import anthropic

client = anthropic.Anthropic()
notifications = queue.Queue()


def background(command):
    result = subprocess.run(command, shell=True, capture_output=True, text=True)
    notifications.put(f"{command}: {result.stdout.strip()}")


def agent_loop(task):
    messages = [{"role": "user", "content": task}]
    while True:
        while not notifications.empty():
            messages.append({"role": "user", "content": notifications.get()})
        response = client.messages.create(
            model="claude-sonnet-4-5", max_tokens=1000, messages=messages)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return response.content[0].text
        results = []
        for block in response.content:
            if block.name == "background_run":
                worker = threading.Thread(target=background, args=(block.input["command"],),
                                          name="background", daemon=True)
                worker.start()
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": "ok"})
        messages.append({"role": "user", "content": results})
'''
AGENT_SETUP = '''TASK = "Run echo hello in the background."


def reply(messages, **request):
    notes = [m["content"] for m in messages if isinstance(m["content"], str)][1:]
    if len(messages) == 1:
        return [{"type": "tool_use", "name": "background_run",
                 "input": {"command": "sleep 1.5 && echo hello"}}]
    if notes:
        return f"the background command said: {notes[0]}"
    return [{"type": "tool_use", "name": "wait", "input": {}}]
'''
AGENT_TOML = '''
title = {zh = "后台命令", en = "A background command"}
summary = {zh = "命令在后台线程运行。", en = "The command runs in a thread."}
setup = "bgagent/setup.py"
modules = ["bgagent/agent.py"]

[standins]
modules = ["anthropic", "subprocess"]
model = "reply"

[[presets]]
name = "normal"
zh = "普通"
en = "Normal"

[[blocks]]
id = "all"
symbols = ["agent_loop", "background"]
source = "bgagent/agent.py"
entry = "print(agent_loop(TASK))"
'''


def write_agent(root):
    folder = world_lesson.Path(root) / "bgagent"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "agent.py").write_text(AGENT_SOURCE, "utf-8")
    (folder / "setup.py").write_text(AGENT_SETUP, "utf-8")
    (folder / "lesson.toml").write_text(AGENT_TOML, "utf-8")


# A command's timeout in a thread (the course's s08 runs each background command with
# timeout=300 and turns TimeoutExpired into a "timeout" notification): the stand-in
# shell's sleep spends the timeout in virtual time, and the one that would outlast it
# raises TimeoutExpired, in a thread as in the main thread; the shell's own `timeout N`
# the same way (exit status 124) (world/timeouts.py).
TIMEOUTS = '''import subprocess
import threading
import time


def run(command, timeout):
    try:
        r = subprocess.run(command, shell=True, capture_output=True, text=True,
                           timeout=timeout)
        return r.stdout.strip()
    except subprocess.TimeoutExpired as e:
        return f"Error: {e}"


def background(results):
    results.append(("bg", run("sleep 5 && echo built", 60)))
    results.append(("bg", run("sleep 400 && echo never", 300)))


def main():
    results = []
    worker = threading.Thread(target=background, args=(results,), name="bg", daemon=True)
    worker.start()
    results.append(("main", run("sleep 200", 120)))
    worker.join()
    results.append(("main", run("timeout 2 sleep 5; echo $?", 60)))   # GNU's 124
    print(results, round(time.monotonic(), 1))
'''
TIMEOUTS_SHOWN = ("[('bg', 'built'), ('main', \"Error: Command 'sleep 200' timed out after "
                  "120 seconds\"), ('bg', \"Error: Command 'sleep 400 && echo never' timed "
                  "out after 300 seconds\"), ('main', '124')] 307.3\n")


def write_timeouts(root):
    return world_lesson.write(root, "timeouts", TIMEOUTS, entry="main()",
                              extra='[standins]\nmodules = ["subprocess"]\n')
