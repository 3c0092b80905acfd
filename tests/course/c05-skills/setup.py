# Only the model's answers are scripted here: SDK, dotenv, subprocess, the working folder
# and the environment come from [standins] in lesson.toml.
import re

QUESTION = "Cut the next release of this project."


def tool(tool_name, **args):
    return {"content": [{"type": "tool_use", "name": tool_name, "input": args}]}


def listed_skills(system):
    """The skill names the system prompt lists, as the model would read them."""
    return re.findall(r"^- ([\w-]+):", system, re.MULTILINE)


def reply(*, system, messages, **request):
    turn = sum(m["role"] == "assistant" for m in messages)
    skills = listed_skills(system)
    if scenario == "unknown_tool":
        return tool("publish", channel="pypi") if turn == 0 else "I have no publish tool; stopping."
    if scenario == "missing_skill":
        steps = [tool("load_skill", name="deploy"),
                 f"There is no deploy skill; the installed ones are {', '.join(skills)}."]
        return steps[min(turn, 1)]
    steps = [tool("load_skill", name=skills[-1]),
             tool("read_file", path="VERSION"),
             tool("bash", command="cat VERSION | tr . ' '"),
             "Release 1.4.3 is ready: VERSION bumped, CHANGELOG updated, tag v1.4.3."]
    return steps[min(turn, len(steps) - 1)]
