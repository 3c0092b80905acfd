"""The loopback fake provider (tests/fake_provider.py) against the real ``anthropic`` and
``openai`` SDKs: its answers parse into the SDKs' own types and its errors raise the
SDKs' own exceptions, so the shapes the recording tests rely on are the real ones."""

import pytest

from fake_provider import KEY, FakeProvider


# The SDKs are imported by the tests that use them, not while the suite is collected (each
# of `make test`'s workers collects every file; these imports take seconds).
@pytest.fixture(scope="module")
def anthropic():
    import anthropic
    return anthropic


@pytest.fixture(scope="module")
def openai():
    import openai
    return openai


TURN = [("thinking", "look first"), "Let me look.", ("tool", "bash", {"command": "ls"})]


def test_the_messages_api_parses_in_the_real_anthropic_sdk(anthropic):
    with FakeProvider([TURN]) as fake:
        client = anthropic.Anthropic(api_key=KEY, base_url=fake.url, max_retries=0)
        message = client.messages.create(model="m-1", max_tokens=100,
                                          messages=[{"role": "user", "content": "hi"}])
    assert isinstance(message, anthropic.types.Message)
    assert [block.type for block in message.content] == ["thinking", "text", "tool_use"]
    assert message.content[2].input == {"command": "ls"} and message.stop_reason == "tool_use"
    assert message.model == "m-1" and message.usage.input_tokens == 10
    path, headers, body = fake.requests[0]
    assert path == "/v1/messages" and "anthropic-version" in headers
    assert KEY in (headers.get("x-api-key"), headers.get("authorization", "")[7:])
    assert body == {"model": "m-1", "max_tokens": 100,
                    "messages": [{"role": "user", "content": "hi"}]}


def test_chat_completions_parse_in_the_real_openai_sdk(openai):
    with FakeProvider([TURN]) as fake:
        client = openai.OpenAI(api_key=KEY, base_url=fake.url + "/v1", max_retries=0)
        completion = client.chat.completions.create(
            model="m-2", messages=[{"role": "user", "content": "hi"}])
    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls" and choice.message.content == "Let me look."
    assert choice.message.tool_calls[0].function.name == "bash"
    assert fake.requests[0][1]["authorization"] == f"Bearer {KEY}"


@pytest.mark.parametrize("status,error", [(401, "AuthenticationError"),
                                          (429, "RateLimitError"),
                                          (500, "InternalServerError")])
def test_errors_are_the_providers_shapes(status, error, anthropic, openai):
    fail = None if status == 401 else (status, f"fake failure {status}")
    key = "wrong" if status == 401 else KEY
    with FakeProvider(fail=fail) as fake:
        client = anthropic.Anthropic(api_key=key, base_url=fake.url, max_retries=0)
        with pytest.raises(getattr(anthropic, error)) as raised:
            client.messages.create(model="m", max_tokens=1, messages=[])
        assert raised.value.status_code == status
        assert raised.value.body["type"] == "error" or raised.value.body.get("error")
        client = openai.OpenAI(api_key=key, base_url=fake.url + "/v1", max_retries=0)
        with pytest.raises(getattr(openai, error)) as raised:
            client.chat.completions.create(model="m", messages=[])
        assert raised.value.status_code == status
    expected = "invalid x-api-key" if status == 401 else f"fake failure {status}"
    assert expected in str(raised.value)
