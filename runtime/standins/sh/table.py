"""The stand-in shell's commands by name: (shell, args, cwd, stdin) → (code, stdout,
stderr)."""

from .. import python_command
from . import (arith, awk, builtins, conditions, fileinfo, fileops, grep, lines, listing, misc,
               programs, sed, sort, text)

COMMANDS = {
    "cat": fileops.cat, "mkdir": fileops.mkdir, "touch": fileops.touch, "cp": fileops.cp,
    "mv": fileops.mv, "rm": fileops.rm, "basename": fileops.basename,
    "dirname": fileops.dirname, "ls": listing.ls, "find": listing.find,
    "head": text.head, "tail": text.tail, "wc": text.wc, "sort": sort.sort,
    "uniq": text.uniq, "cut": text.cut, "tr": text.tr, "nl": text.nl, "seq": text.seq,
    "grep": grep.grep, "egrep": lambda s, a, c, i: grep.grep(s, a, c, i, "E"),
    "fgrep": lambda s, a, c, i: grep.grep(s, a, c, i, "F"),
    "sed": sed.sed, "awk": awk.awk, "echo": misc.echo, "printf": misc.printf,
    "test": conditions.test, "[": conditions.bracket, "[[": conditions.double_bracket,
    "true": misc.true, "false": misc.false, "timeout": misc.timeout,
    "realpath": misc.realpath, "md5sum": misc.checksum("md5"),
    "sha1sum": misc.checksum("sha1"), "sha256sum": misc.checksum("sha256"),
    "xargs": misc.xargs, "diff": misc.diff, "tee": misc.tee, "paste": misc.paste,
    "bash": programs.bash, "sh": lambda s, a, c, i: programs.bash(s, a, c, i, "sh"),
    "which": programs.which,
    "command": programs.command, "type": programs.type_,
    "python": python_command.run, "python3": python_command.run,
    "env": programs.env, "printenv": programs.printenv, "sleep": programs.sleep,
    "stat": fileinfo.stat, "readlink": fileinfo.readlink, "chmod": fileinfo.chmod,
    "ln": fileinfo.ln, "tac": lines.tac, "rev": lines.rev, "comm": lines.comm,
    "fold": lines.fold, "column": lines.column, "expr": arith.expr,
}
BUILTINS = builtins.NAMES
