"""The stand-ins of runtime/standins, piece by piece: SDK-shaped answers, the shell,
the subprocess functions and the validation of ``[standins]``."""

import inspect
import subprocess as real_subprocess
import types

import pytest

from loopstep.runtime.catalog.lessons import LessonError, load_lesson
from loopstep.runtime.standins import anthropic, openai, process
from loopstep.runtime.standins.sdk import Ids
from loopstep.runtime.standins.shell import Shell


def context(folder=None, namespace=None, shell=None):
    return types.SimpleNamespace(ids=Ids(), namespace=namespace or {}, model="reply",
                                 shell=shell, folder=str(folder))


# -- anthropic -----------------------------------------------------------------------------
def test_anthropic_dicts_become_messages_with_the_sdk_names_shapes_and_reprs():
    ctx = context()
    answer = {"content": ["Let me look.", {"type": "tool_use", "name": "read_file",
                                           "input": {"path": "a.txt"}}]}
    message = anthropic.message(answer, {"model": "claude-x"}, ctx)
    assert repr(message) == (
        "Message(id='msg_001', content=[TextBlock(citations=None, text='Let me look.', "
        "type='text'), ToolUseBlock(id='toolu_001', caller=None, input={'path': 'a.txt'}, "
        "name='read_file', type='tool_use')], model='claude-x', role='assistant', stop_reason='tool_use', "
        "stop_sequence=None, type='message', usage=Usage(input_tokens=0, output_tokens=0))")
    assert type(message).__module__ == "anthropic.types" and type(message).__name__ == "Message"
    assert message.content[1].input == {"path": "a.txt"} and message.content[1].type == "tool_use"
    second = anthropic.message("done", {"model": "claude-x"}, ctx)
    assert (second.id, second.stop_reason, second.content[0].text) == ("msg_002", "end_turn", "done")
    given = anthropic.message({"id": "msg_A", "stop_reason": "max_tokens", "content": [
        {"type": "tool_use", "id": "toolu_A", "name": "x"}]}, {}, ctx)
    assert (given.id, given.stop_reason, given.content[0].id, given.content[0].input) == \
        ("msg_A", "max_tokens", "toolu_A", {})
    assert message.model_dump()["content"][0] == {"citations": None, "text": "Let me look.",
                                                  "type": "text"}


def test_anthropic_rejects_what_is_not_the_messages_shape():
    with pytest.raises(ValueError, match="content block"):
        anthropic.message({"content": [{"type": "image"}]}, {}, context())
    with pytest.raises(TypeError, match="reply must return"):
        anthropic.message(42, {}, context())
    with pytest.raises(TypeError, match="unexpected field 'colour'"):
        anthropic.message({"content": "x", "colour": "red"}, {}, context())


def test_anthropic_client_calls_the_setup_reply_with_the_request():
    seen = []

    def reply(**request):
        seen.append(request)
        return "hello"

    ctx = context(namespace={"reply": reply})
    module = anthropic.build(ctx)["anthropic"]
    client = module.Anthropic(api_key="k", base_url=None)
    answer = client.messages.create(model="m", max_tokens=10, messages=[{"role": "user",
                                                                        "content": "hi"}])
    assert seen == [{"messages": [{"role": "user", "content": "hi"}], "model": "m",
                     "max_tokens": 10}]
    assert answer.content[0].text == "hello" and answer.model == "m"
    assert issubclass(module.RateLimitError, module.APIError)
    assert module.RateLimitError("slow").status_code == 429
    with pytest.raises(RuntimeError, match="setup function reply"):
        anthropic.build(context())["anthropic"].Anthropic().messages.create(messages=[])


# -- openai --------------------------------------------------------------------------------
def test_openai_answers_in_the_chat_completions_shape():
    ctx = context()
    done = openai.completion({"content": None, "tool_calls": [
        {"name": "ls", "arguments": {"path": "."}}]}, {"model": "gpt-x"}, ctx)
    choice = done.choices[0]
    call = choice.message.tool_calls[0]
    assert (done.id, done.model, done.object, done.created) == \
        ("chatcmpl_001", "gpt-x", "chat.completion", 0)
    assert (choice.finish_reason, call.id, call.type, call.function.name, call.function.arguments) \
        == ("tool_calls", "call_001", "function", "ls", '{"path": "."}')
    text = openai.completion("fine", {}, ctx)
    assert (text.choices[0].message.content, text.choices[0].finish_reason,
            text.choices[0].message.tool_calls) == ("fine", "stop", None)
    assert repr(call) == ("ChatCompletionMessageToolCall(id='call_001', function=Function("
                          "arguments='{\"path\": \".\"}', name='ls'), type='function')")


# -- the shell -----------------------------------------------------------------------------
@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "run"
    (root / "src").mkdir(parents=True)
    (root / "a.txt").write_text("alpha\nbeta\ngamma\nbeta two\n")
    (root / "src" / "app.py").write_text("def add(a, b):\n    return a + b\n")
    (root / ".hidden").write_text("h")
    (tmp_path / "outside.txt").write_text("secret")
    return root


@pytest.mark.parametrize("line, expected", [
    ("pwd", (0, "{root}\n", "")),
    ("echo hello   'two words'", (0, "hello two words\n", "")),
    ("echo -n x", (0, "x", "")),
    ("cat a.txt", (0, "alpha\nbeta\ngamma\nbeta two\n", "")),
    ("cat missing.txt", (1, "", "cat: missing.txt: No such file or directory\n")),
    ("cat ../outside.txt", (1, "", "cat: ../outside.txt: No such file or directory\n")),
    ("cat /etc/passwd", (1, "", "cat: /etc/passwd: No such file or directory\n")),
    ("cat src", (1, "", "cat: src: Is a directory\n")),
    ("ls", (0, "a.txt\nsrc\n", "")),
    ("ls -a src", (0, ".\n..\napp.py\n", "")),
    ("ls nope", (2, "", "ls: cannot access 'nope': No such file or directory\n")),
    ("head -n 2 a.txt", (0, "alpha\nbeta\n", "")),
    ("head -1 a.txt", (0, "alpha\n", "")),
    ("wc -l a.txt", (0, "4 a.txt\n", "")),
    ("cat a.txt | wc -l", (0, "4\n", "")),
    ("grep -n beta a.txt", (0, "2:beta\n4:beta two\n", "")),
    ("grep -c beta a.txt", (0, "2\n", "")),
    ("grep zeta a.txt", (1, "", "")),
    ("grep -r add .", (0, "./src/app.py:def add(a, b):\n", "")),
    ("cat a.txt | grep -v beta | head -n 1", (0, "alpha\n", "")),
    ("echo one > b.txt && echo two >> b.txt && cat b.txt", (0, "one\ntwo\n", "")),
    ("cat nope || echo fallback", (0, "fallback\n", "cat: nope: No such file or directory\n")),
    ("cat nope && echo never", (1, "", "cat: nope: No such file or directory\n")),
    ("echo a; echo b", (0, "a\nb\n", "")),
    ("python -m pytest", (1, "", "python: No module named pytest\n")),
    ("make test", (127, "", "bash: line 1: make: command not found\n")),
    ("echo $(pwd)", (0, "{root}\n", "")),
    ("echo a &", (2, "", "sh: unsupported syntax: &\n")),
])
def test_shell_commands_run_against_the_folder(folder, line, expected):
    shell = Shell(folder)
    code, out, err = expected
    assert shell.run_line(line, str(folder)) == (code, out.format(root=folder), err)


def test_shell_reads_stdin_and_knows_its_commands(folder):
    shell = Shell(folder)
    assert shell.run_line("grep b", str(folder), "abc\nxyz\nbb\n") == (0, "abc\nbb\n", "")
    assert shell.known("cat a.txt | sort") and not shell.known("cat a.txt | make")
    assert shell.known("for f in *.txt; do wc -l $f; done") and \
        not shell.known("if true; then git status; fi")
    assert shell.run_line("ls `pwd`", str(folder)) == (0, "a.txt\nsrc\n", "")


# -- subprocess ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["run", "check_output", "call", "check_call"])
def test_subprocess_functions_have_the_real_signatures(folder, name):
    module = process.build(context(folder))["subprocess"]
    assert inspect.signature(getattr(module, name)) == \
        inspect.signature(getattr(real_subprocess, name))


@pytest.mark.parametrize("name", ["CompletedProcess", "TimeoutExpired", "CalledProcessError"])
def test_subprocess_classes_have_the_real_signatures_and_texts(name):
    assert inspect.signature(getattr(process, name)) == \
        inspect.signature(getattr(real_subprocess, name))
    args = {"CompletedProcess": (["ls"], 0, "x\n"), "TimeoutExpired": ("ls", 120),
            "CalledProcessError": (2, "ls nope")}[name]
    ours, real = getattr(process, name)(*args), getattr(real_subprocess, name)(*args)
    assert (str(ours), repr(ours).split("(")[1]) == (str(real), repr(real).split("(")[1])


def test_subprocess_run_as_the_lessons_call_it(folder, monkeypatch, capsys):
    monkeypatch.chdir(folder)
    sp = process.build(context(folder))["subprocess"]
    done = sp.run("cat a.txt | head -n 1", shell=True, cwd=str(folder), capture_output=True,
                  text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "alpha\n", "")
    assert sp.run(["cat", "a.txt"], capture_output=True).stdout == b"alpha\nbeta\ngamma\nbeta two\n"
    assert sp.run("ls", shell=True, cwd="src", stdout=sp.PIPE, text=True).stdout == "app.py\n"
    merged = sp.run("cat nope", shell=True, stdout=sp.PIPE, stderr=sp.STDOUT, text=True)
    assert (merged.stdout, merged.stderr) == ("cat: nope: No such file or directory\n", None)
    sp.run("echo shown", shell=True)
    assert capsys.readouterr().out == "shown\n"
    with pytest.raises(sp.CalledProcessError, match="returned non-zero exit status 1"):
        sp.run("cat nope", shell=True, capture_output=True, check=True)
    assert sp.check_output("echo hi", shell=True, text=True) == "hi\n"
    assert sp.getstatusoutput("wc -l a.txt") == (0, "4 a.txt")
    missing = sp.run("make test", shell=True, capture_output=True, text=True)
    assert (missing.returncode, missing.stderr) == \
        (127, "bash: line 1: make: command not found\n")
    with pytest.raises(FileNotFoundError):
        sp.run(["make", "test"])
    with pytest.raises(FileNotFoundError):
        sp.run("ls", shell=True, cwd="/")


def test_subprocess_sends_unknown_commands_to_the_setup_shell(folder, monkeypatch):
    monkeypatch.chdir(folder)
    lines = []

    def run_command(command):
        lines.append(command)
        if command.startswith("npm"):
            raise process.TimeoutExpired(command, 120)
        return (1, "1 failed\n", "") if "pytest" in command else "ok\n"

    sp = process.build(context(folder, {"run_command": run_command}, "run_command"))["subprocess"]
    failed = sp.run("python -m pytest -q | tail -1", shell=True, capture_output=True, text=True)
    assert (failed.returncode, failed.stdout) == (1, "1 failed\n")
    assert sp.run(["git", "status"], capture_output=True, text=True).stdout == "ok\n"
    assert sp.run("cat a.txt | head -n 1", shell=True, capture_output=True, text=True).stdout \
        == "alpha\n"
    with pytest.raises(sp.TimeoutExpired, match="timed out after 120 seconds"):
        sp.run("npm run serve", shell=True, timeout=120)
    assert lines == ["python -m pytest -q | tail -1", "git status", "npm run serve"]


# -- [standins] in lesson.toml -------------------------------------------------------------
BASE = """title = {zh = "测", en = "T"}
summary = {zh = "测", en = "T"}
setup = "w/setup.py"
modules = ["w/code.py"]
[[presets]]
name = "normal"
zh = "正常"
en = "Normal"
[[blocks]]
symbol = "go"
source = "w/code.py"
presets = ["normal"]
entry = "go()"
"""


@pytest.mark.parametrize("table, reason", [
    ('modules = ["requests"]', "unknown module 'requests' (known: anthropic, openai, dotenv, "
                               "subprocess)"),
    ('modules = ["anthropic"]\nmodel = "answer"',
     "model: the setup w/setup.py defines no top-level function 'answer'"),
    ('modules = ["subprocess"]\nshell = "REPLY"',
     "shell: the setup w/setup.py defines no top-level function 'REPLY'"),
    ('modules = ["anthropic"]', "module 'anthropic' needs model = \"<setup function>\""),
    ('files = { "/etc/passwd" = "x" }', "files: path '/etc/passwd' must be relative, without '..'"),
    ('files = { "../up.txt" = "x" }', "files: path '../up.txt' must be relative, without '..'"),
    ('files = { "a.txt" = 3 }', "[standins.files.a.txt]: expected text, got an integer 3"),
    ('input = "y"', "[standins.input]: expected an array of texts, got text 'y'"),
    ('colour = "red"', "[standins]: unknown key 'colour'"),
])
def test_standins_table_errors_name_the_file_and_the_reason(tmp_path, table, reason):
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "code.py").write_text("def go():\n    return 1\n")
    (folder / "setup.py").write_text("REPLY = 1\n\ndef reply(**request):\n    return 'x'\n")
    (folder / "lesson.toml").write_text(BASE + "[standins]\n" + table + "\n")
    with pytest.raises(LessonError) as raised:
        load_lesson("w", [tmp_path])
    place = str(tmp_path / "w" / "lesson.toml")
    if reason.startswith("["):     # the shape, checked by the schema: its place, then why
        assert str(raised.value).startswith(f"{place} {reason}")
    else:
        assert raised.value.where == f"{place} [standins]"
        assert reason in raised.value.reason


def test_bundled_agent_whole_declares_its_standins():
    standins = load_lesson("agent-whole").standins
    assert standins.modules == ("anthropic", "dotenv", "subprocess") and standins.model == "reply"
    assert dict(standins.env) == {"MODEL_ID": "claude-sonnet-4-5"}
    assert "requirements.txt" in dict(standins.files)


def test_clients_show_as_the_sdks_classes():
    ctx = context()
    assert repr(anthropic.build(ctx)["anthropic"].Anthropic) == "<class 'anthropic.Anthropic'>"
    assert repr(openai.build(ctx)["openai"].OpenAI) == "<class 'openai.OpenAI'>"
