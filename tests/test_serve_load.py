"""Concurrent page loads on a real `loopstep serve`: what a page shows of its lesson (the
calls a block does not show, a whole file's own names) is computed once when the lesson
loads, so many requests at once all get their page (docs/design.md, "Lessons")."""
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.request import urlopen

import pytest

REPO = Path(__file__).resolve().parent.parent
REQUESTS, AT_ONCE = 300, 40


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    port = free_port()
    log = (tmp_path / "serve.log").open("w+")
    proc = subprocess.Popen([sys.executable, "-c",
                             "import sys, server; sys.exit(server.main(sys.argv[1:]))",
                             "serve", "--port", str(port)], cwd=REPO, stdout=log,
                            stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        assert proc.poll() is None, f"serve exited with {proc.returncode}"
        try:
            with urlopen(url + "/", timeout=1):
                break
        except (URLError, ConnectionError, TimeoutError):
            assert time.monotonic() < deadline, "serve did not answer within 30 s"
            time.sleep(0.05)   # polling a subprocess's port
    yield url, log
    proc.terminate()
    proc.wait(10)
    log.close()


def status(url: str) -> int:
    try:
        with urlopen(url, timeout=60) as response:
            response.read()
            return response.status
    except HTTPError as error:
        return error.code


@pytest.mark.slow
def test_300_page_loads_40_at_a_time_all_answer(served):
    url, log = served
    with ThreadPoolExecutor(AT_ONCE) as pool:
        codes = list(pool.map(status, [url + "/lessons/agent-whole"] * REQUESTS))
    failed = [code for code in codes if code >= 500]
    log.seek(0)
    assert not failed, f"{len(failed)} of {REQUESTS} answered 5xx:\n{log.read()[-3000:]}"
    assert codes == [200] * REQUESTS
