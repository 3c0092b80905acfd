# Only the model's answers are scripted here: SDK, dotenv, subprocess, the working folder
# and the environment come from [standins] in lesson.toml.
QUESTION = "Why is the nightly build slow? Look at the notes and the build log."
SUMMARY = ("Asked: why the nightly build is slow. Done: read the build output and the notes. "
           "Left: propose caching the dependency download.")


def tool(tool_name, **args):
    return {"content": [{"type": "tool_use", "name": tool_name, "input": args}]}


STEPS = {
    "auto": [tool("bash", command="seq -s ' ' 1 1500"),
             tool("bash", command="wc -l .transcripts/*.jsonl"),
             "Compacted once; next: cache the dependency download."],
    "small": [tool("read_file", path="notes/plan.md"),
              tool("read_file", path="notes/steps.md"),
              tool("read_file", path="notes/ideas.md"),
              "The tests take longest: run the two suites side by side."],
    "manual": [tool("read_file", path="notes/steps.md"),
               tool("compact"),
               "From the summary: cache the dependency download first."],
}


def reply(*, system, messages, **request):
    if system.startswith("You condense"):
        return SUMMARY
    steps = STEPS[scenario]
    first = messages[0]["content"]
    done = sum(m["role"] == "assistant" for m in messages)
    if isinstance(first, str) and first.startswith("[Compacted"):
        done += len(steps) - 1 - (scenario == "auto")   # what is left after the compaction
    return steps[min(done, len(steps) - 1)]
