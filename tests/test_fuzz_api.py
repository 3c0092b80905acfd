"""Generated requests against every documented endpoint: never a 5xx, never a file
from outside the served folders. About 1,000 requests in all; the count of distinct
requests each operation really received is checked when the module's tests end."""
from collections import Counter, defaultdict

import hypothesis
import pytest
import schemathesis
from hypothesis import HealthCheck

from loopstep import server

pytestmark = pytest.mark.slow   # schemathesis against the whole API

app = server.create_app()
schema = schemathesis.openapi.from_asgi("/openapi.json", app)
OPERATIONS = sum(1 for _ in schema.get_all_operations())
EXAMPLES = max(80, 1000 // max(OPERATIONS, 1) + 1)
SECRETS = (b"def create_app", b"[build-system]", b"root:x:0:0")
# An operation with parameters must get at least this many distinct requests.
MIN_DISTINCT = EXAMPLES // 2


WITH_PARAMETERS = {result.ok().label for result in schema.get_all_operations()
                   if any(True for _ in result.ok().iter_parameters())}


class Sent:
    """The requests test_api really sent, by operation."""

    def __init__(self):
        self.calls = Counter()
        self.distinct = defaultdict(set)

    def add(self, case):
        self.calls[case.operation.label] += 1
        self.distinct[case.operation.label].add(repr((
            sorted((case.path_parameters or {}).items()), sorted((case.query or {}).items()))))


@pytest.fixture(scope="module")
def sent():
    requests = Sent()
    yield requests
    thin = {label: len(seen) for label, seen in requests.distinct.items()
            if label in WITH_PARAMETERS and len(seen) < MIN_DISTINCT}
    assert not thin, f"operations with fewer than {MIN_DISTINCT} distinct requests: {thin}"
    if len(requests.calls) == OPERATIONS:  # the whole module ran
        total = sum(requests.calls.values())
        assert total >= 1000, f"only {total} requests were generated"


@schema.parametrize()
@hypothesis.settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                     suppress_health_check=list(HealthCheck))
def test_api(case, sent):
    sent.add(case)
    response = case.call()
    assert response.status_code < 500, (case.path, case.path_parameters, response.text[:200])
    assert not any(secret in response.content for secret in SECRETS), case.path_parameters
    if response.status_code == 404:
        assert response.headers["content-type"] == ["application/json"]
        assert "detail" in response.json()
