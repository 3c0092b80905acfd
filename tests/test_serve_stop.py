"""A `loopstep serve` stopped by a signal (SIGTERM here; Ctrl-C sends SIGINT) removes the
folder its bundles were written to: uvicorn exits by the signal once the app has shut down,
so the interpreter's exit handlers, which would remove a temporary folder, do not run
(web/files.py removes it at the lifespan's shutdown)."""
from tests.browser.conftest import ServerProcess


def test_a_stopped_server_leaves_no_bundles_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))   # the server's temporary folders go here
    proc = ServerProcess([])   # waits until it answers
    try:
        serving = [p.name for p in tmp_path.glob("loopstep-bundles-*")]
    finally:
        proc.stop()
    assert len(serving) == 1, serving
    assert proc.proc.returncode is not None
    assert not list(tmp_path.glob("loopstep-bundles-*")), proc.output()[-2000:]
