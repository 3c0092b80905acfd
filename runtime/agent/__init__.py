"""The model and tool calls of a run, observed without touching the lesson's code:
``capture`` (``Capture``: the calls and their conversations), ``parts`` (messages
normalised), ``origins`` (where each message came from), ``spec`` (the lesson's
``[agent]`` table), ``wire`` (the agent part of the trace's forms), ``dispatch``
(``Dispatchers``: a declared function answered otherwise for one run, its code untouched)."""
