# Only answers are scripted here: the model's (reply) and git's (git, for the commands the
# stand-in shell does not have). SDK, dotenv, subprocess, the working folder and the
# environment come from [standins] in lesson.toml.
import shlex

QUESTION = "Start the login and billing work, each in its own worktree."
NAMES = {"create": ["auth", "billing"], "duplicate": ["auth", "auth", "../up"],
         "git_fails": ["auth"]}[scenario]


def tool(tool_name, **args):
    return {"content": [{"type": "tool_use", "name": tool_name, "input": args}]}


def git(command):
    """What git prints for `command` (the whole line, quoted as a shell would read it)."""
    args = shlex.split(command)[1:]
    if args[:2] == ["worktree", "add"]:
        branch = args[args.index("-b") + 1]
        if scenario == "git_fails":
            return 128, "", f"fatal: a branch named '{branch}' already exists\n"
        return 0, "", f"Preparing worktree (new branch '{branch}')\nHEAD is now at 4f1c2d9 Add login form\n"
    if args[:2] == ["worktree", "remove"]:
        return 0, "", ""
    return 1, "", f"git: '{args[0]}' is not scripted in this lesson\n"


STEPS = {
    "create": [tool("worktree_create", name="auth", task="login form"),
               tool("worktree_create", name="billing", task="charge in cents"),
               tool("worktree_remove", name="billing"),
               tool("worktree_list"),
               "auth is ready in its worktree; billing was removed until later."],
    "duplicate": [tool("worktree_create", name="auth", task="login form"),
                  tool("worktree_create", name="auth", task="login form again"),
                  "auth exists already; working in it."],
    "git_fails": [tool("worktree_create", name="auth", task="login form"),
                  tool("worktree_list"),
                  "git refused: the branch wt/auth exists. Please delete it or pick a name."],
}


def reply(*, system, messages, **request):
    turn = sum(m["role"] == "assistant" for m in messages)
    steps = STEPS[scenario]
    return steps[min(turn, len(steps) - 1)]
