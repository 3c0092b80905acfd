"""Live runs are opt-in per site (docs/live.md): without --live the pages, the policy and
the export name no other origin; with it the Content-Security-Policy's connect-src is exactly
'self' plus the allowed endpoints' origins, served and exported, and the live form is on
the blocks of lessons with a stand-in model client."""
import re

import pytest
from fastapi.testclient import TestClient

import server
from loopstep.web.export import export_site
from loopstep.web.live_site import LiveSite
from loopstep.runtime.catalog import lessons as catalog


def connect_src(policy):
    return re.search(r"connect-src ([^;]*)", policy).group(1)


def page(app, path):
    response = TestClient(app).get(path)
    assert response.status_code == 200
    return response


def test_served_without_live_has_no_form_and_no_origin():
    response = page(server.create_app(), "/lessons/agent-whole")
    assert connect_src(response.headers["content-security-policy"]) == "'self'"
    assert "data-role=\"live\"" not in response.text
    assert "http-equiv=\"Content-Security-Policy\"" not in response.text


def test_served_with_live_allows_exactly_the_endpoints():
    live = LiveSite.of(["http://127.0.0.1:9/v1", "https://api.anthropic.com/"], 5)
    response = page(server.create_app(live=live), "/lessons/agent-whole")
    assert connect_src(response.headers["content-security-policy"]) == \
        "'self' http://127.0.0.1:9 https://api.anthropic.com"
    block = response.text.split("data-loopstep-block=", 1)[1]
    form = block.split('<form class="live" data-role="live"', 1)[1].split("</form>", 1)[0]
    assert '<input name="key" type="password" autocomplete="off"' in form
    assert '<select name="provider">' in form
    assert '<input name="base-url" type="url" value="https://api.anthropic.com"' in form
    assert 'data-action="run-live"' in form and 'data-action="stop-live"' in form


def test_default_endpoints_are_the_providers_apis():
    response = page(server.create_app(live=LiveSite.of(None)), "/lessons/agent-whole")
    assert connect_src(response.headers["content-security-policy"]) == \
        "'self' https://api.anthropic.com https://api.openai.com"


def test_only_lessons_with_a_model_client_get_the_form():
    response = page(server.create_app(live=LiveSite.of(None)), "/lessons/s01")
    assert "data-role=\"live\"" not in response.text


def test_prompt_only_for_blocks_that_read_input():
    live = LiveSite.of(None)
    assert 'name="prompt"' in page(server.create_app(live=live), "/lessons/lcc-s06").text
    assert 'name="prompt"' not in page(server.create_app(live=live), "/lessons/agent-whole").text


def test_export_with_live_writes_the_policy_itself(tmp_path):
    live = LiveSite.of(["http://127.0.0.1:9"])
    policy = server.content_security_policy(None, live)
    export_site(tmp_path, catalog.load_lessons(None), live, policy)
    html = (tmp_path / "lessons" / "agent-whole" / "index.html").read_text()
    meta = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
    assert connect_src(meta.group(1).replace("&#39;", "'")) == "'self' http://127.0.0.1:9"
    assert "data-role=\"live\"" in html
    assert f'"{policy}"' in (tmp_path / "nginx-csp.conf").read_text()


def test_export_without_live_has_no_form_and_no_origin(tmp_path):
    export_site(tmp_path, catalog.load_lessons(None))
    html = (tmp_path / "lessons" / "agent-whole" / "index.html").read_text()
    meta = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
    assert connect_src(meta.group(1).replace("&#39;", "'")) == "'self'"
    assert "data-role=\"live\"" not in html
    assert not (tmp_path / "nginx-csp.conf").exists()   # the shipped nginx config's policy


@pytest.mark.parametrize("args", [["--live-endpoint", "http://127.0.0.1:9"],
                                  ["--live", "--live-endpoint", "ftp://host"],
                                  ["--live", "--live-timeout", "0"]])
def test_bad_live_options_are_one_line_errors(args, tmp_path, capsys):
    assert server.main(["export", str(tmp_path / "out"), *args]
                       if "--live-timeout" not in args else ["serve", *args]) == 2
    error = capsys.readouterr().err
    assert error.startswith("loopstep: --live") and error.count("\n") == 1
    assert not (tmp_path / "out").exists()
