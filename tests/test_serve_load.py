"""Concurrent page loads on a real `loopstep serve`: what a page shows of its lesson (the
calls a block does not show, a whole file's own names) is computed once when the lesson
loads, so many requests at once all get their page (docs/design.md, "Lessons")."""
from concurrent.futures import ThreadPoolExecutor
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest

from tests.browser.conftest import ServerProcess

REQUESTS, AT_ONCE = 300, 40


@pytest.fixture
def served():
    proc = ServerProcess([])   # waits until it answers
    yield proc
    proc.stop()


def status(url: str) -> int:
    try:
        with urlopen(url, timeout=60) as response:
            response.read()
            return response.status
    except HTTPError as error:
        return error.code


@pytest.mark.slow
def test_300_page_loads_40_at_a_time_all_answer(served):
    with ThreadPoolExecutor(AT_ONCE) as pool:
        codes = list(pool.map(status, [served.url + "/lessons/agent-whole"] * REQUESTS))
    failed = [code for code in codes if code >= 500]
    assert not failed, f"{len(failed)} of {REQUESTS} answered 5xx:\n{served.output()[-3000:]}"
    assert codes == [200] * REQUESTS
