"""What a reader asks of a run: ``questions`` (``Questions``: breakpoint conditions, hit
counts, logpoints, watches, evaluated while the run is recorded), ``watches``, ``code``
and ``expressions`` (their compiled form), ``readonly`` and ``calls`` (what an expression
may do without changing the program), ``forks`` (a model or tool call answered otherwise)."""
