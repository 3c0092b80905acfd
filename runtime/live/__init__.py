"""Live runs from the reader's browser (docs/live.md): the page's worker runs a block with
its stand-in client's model calls sent to a real provider by the browser itself, with the
reader's key in the provider's auth header only, and hands back the run as a recording.

``browser.py`` offers ``BrowserLive`` (the recorder's ``live`` answers, sending through a
function the worker gives it) and ``run`` (one live run: the recording and how it ended).
"""
