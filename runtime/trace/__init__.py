"""Recording and the trace: ``backends`` (the interpreter's events: sys.monitoring or
settrace), ``steps`` (the trace builder, ``TraceBuilder``), ``columns`` (``Columns``, the
steps by field, and the builder's state per frame), ``statements``
(the statements of a function), ``events`` (step event codes, shared with the page),
``names`` (names the interpreter binds by itself), ``values`` (the VALUE encoding and the
run's folder shown under its stand-in name), ``wire`` (the dict and packed forms)."""
