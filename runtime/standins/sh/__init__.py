"""The stand-in shell's rooms (shell.py is its front): lex.py and parse.py (bash's
grammar), expand.py and arith.py (words into fields), run.py (pipelines, redirections,
builtins), table.py (commands by name) and the commands by family: listing.py (ls,
find), fileops.py, text.py, sort.py, grep.py, sed.py, awk*.py, conditions.py,
programs.py, misc.py; options.py and regex.py are what they share."""
