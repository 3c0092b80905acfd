"""Generated requests against every documented endpoint: never a 5xx, never a file
from outside the served folders. About 1,000 cases in all."""
import hypothesis
import schemathesis
from hypothesis import HealthCheck

import server

app = server.create_app()
schema = schemathesis.openapi.from_asgi("/openapi.json", app)
OPERATIONS = sum(1 for _ in schema.get_all_operations())
EXAMPLES = max(80, 1000 // max(OPERATIONS, 1) + 1)
SECRETS = (b"def create_app", b"[build-system]", b"root:x:0:0")


@schema.parametrize()
@hypothesis.settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                     suppress_health_check=list(HealthCheck))
def test_api(case):
    response = case.call()
    assert response.status_code < 500, (case.path, case.path_parameters, response.text[:200])
    assert not any(secret in response.content for secret in SECRETS), case.path_parameters
    if response.status_code == 404:
        assert response.headers["content-type"] == ["application/json"]
        assert "detail" in response.json()


def test_enough_cases_are_generated():
    assert OPERATIONS * EXAMPLES >= 1000
