"""The page's edge (Pyodide only at run time, CPython-tested): ``worker`` (what the page's
worker asks of Python: record a block, name stale precompiled modules) and ``boot_hooks``
(the import hooks the fast boot installs before the recorder's files are there; the boot
set carries its text in ``boot.json``)."""
