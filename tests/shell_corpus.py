"""The stand-in shell's command corpus: commands of the kind coding agents run, each run
once by real ``bash -c`` (GNU coreutils, the system's awk, ``LC_ALL=C``, ``TZ=UTC``) and
once by the stand-in shell (runtime/standins/shell.py), each in a fresh copy of the
same files.

What the comparison normalises (and nothing else): the folder's own path (both show
``ROOT``), in ``ls -l`` rows the owner, group and time columns (the stand-in world's
owner is ``user``; a real file's owner and times are the machine's) with the columns
joined by one space (their widths follow those machine-dependent values), and in a listing
with ``..`` the mode, link count and size of that row and the ``total`` line (the
folder's parent is outside the stand-in world: it shows as the folder does). ``find`` and
``grep -r`` visit directories in sorted order in the stand-in world; the corpus lists
their output through ``sort`` where a real file system's order would show. The folder
is made ``drwxr-xr-x`` (as the stand-in world shows it); bash's ``python3`` is this
test's Python. ``env`` and ``printenv`` show the stand-in shell's exported variables, not
the machine's: the corpus asks them for named variables only (a whole listing's order and
bash's own ``SHLVL``/``_`` would differ), and leaves out ``du``, ``date``, ``ls -t`` and
whatever else shows block counts, times or owners. Run ``python tests/shell_corpus.py`` for the table of differences.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FILES = {
    "README.md": "# Demo\nA small project.\nTODO: write the docs\n",
    "notes.txt": "alpha\nbeta\ngamma\nalpha\ndelta\nbeta\nalpha\n",
    "nums.txt": "10\n2\n33\n4\n2\n100\n-5\n",
    "data.csv": "name,age,city\nann,31,paris\nbob,25,rome\ncid,40,oslo\ndee,25,lima\n",
    "log.txt": "INFO start\nWARN disk low\nERROR failed to open\nINFO retry\nERROR timeout\n",
    "src/app.py": "import os\n\n\ndef main():\n    print('hello')  # TODO\n    return 0\n",
    "src/util.py": "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n",
    "src/lib/helpers.js": "function help() {\n  return 42;\n}\n",
    "manual/guide.md": "# Guide\nStep one\nStep two\n",
    "empty.txt": "",
    ".env": "KEY=secret\n",
    "words.txt": "the cat sat\non the mat\nthe end\n",
    "my file.txt": "spaced name\n",
    "unicode.txt": "h\u00e9llo w\u00f6rld\n\u00e7ava\n",
    "noeol.txt": "one\ntwo",
    "tabs.tsv": "a\tb\tc\n1\t2\t3\n",
    "big.txt": "".join(f"line {i}\n" for i in range(1, 31)),
}

COMMANDS = [
    # ls
    "ls", "ls -a", "ls -A", "ls -1", "ls src", "ls -R", "ls src manual", "ls notes.txt src",
    "ls nope", "ls -d src", "ls -F", "ls -la src", "ls -l notes.txt", "ls -l",
    "ls -la", "ls *.txt", "ls src/*.py", "ls -r", "ls -zq",
    # find
    "find . -name '*.py' | sort", "find . -type d | sort", "find src -type f | sort",
    "find . -maxdepth 1 -type f | sort", "find . -path '*lib*' | sort",
    "find . -not -name '*.txt' -type f | sort", "find src -name '*.js'", "find nope",
    "find . -name '*.md' -o -name '*.csv' | sort", "find . -type f | wc -l",
    "find . -empty", "find . -iname 'README*'",
    # grep
    "grep alpha notes.txt", "grep -n beta notes.txt", "grep -c alpha notes.txt",
    "grep -i todo README.md", "grep -v a notes.txt", "grep -l def src/*.py",
    "grep -rn TODO . | sort", "grep -r 'def ' src --include='*.py' | sort",
    "grep -E '^(INFO|WARN)' log.txt", "grep -w the words.txt", "grep -o 'a[a-z]*' notes.txt",
    "grep zeta notes.txt", "grep x nope.txt", "grep -rl return src | sort",
    "grep -c ERROR log.txt", "grep -n '^$' src/app.py", "grep -e alpha -e gamma notes.txt",
    "grep -x beta notes.txt", "grep -A1 WARN log.txt", "grep -q ERROR log.txt; echo $?",
    "grep 'a\\|g' notes.txt", "grep -rc def src | sort",
    # head, tail, wc
    "head -n 2 notes.txt", "head -3 log.txt", "tail -n 2 notes.txt", "tail -n +3 nums.txt",
    "tail -1 data.csv", "head -n 1 notes.txt words.txt", "wc -l notes.txt",
    "wc notes.txt", "wc -w words.txt", "wc -c README.md", "cat notes.txt | wc -l",
    "wc -l notes.txt words.txt", "wc -l < notes.txt", "cat data.csv | wc",
    "head nope.txt",
    # sort, uniq, cut, tr
    "sort notes.txt", "sort -r notes.txt", "sort -n nums.txt", "sort -rn nums.txt | head -3",
    "sort -u notes.txt", "sort notes.txt | uniq -c", "sort notes.txt | uniq -c | sort -rn",
    "sort -t, -k2 -n data.csv", "cut -d, -f1 data.csv", "cut -d, -f2,3 data.csv",
    "cut -c1-3 notes.txt", "tr a-z A-Z < words.txt", "tr -d 'a' < notes.txt",
    "echo hello | tr 'lo' 'xy'", "tr -s ' ' < words.txt", "sort notes.txt | uniq -d",
    "sort notes.txt | uniq -u", "tail -n +2 data.csv | cut -d, -f3 | sort",
    # sed, awk
    "sed -n '2,4p' notes.txt", "sed 's/alpha/ALPHA/g' notes.txt", "sed '1d' data.csv",
    "sed -n '/beta/p' notes.txt", "sed 's/,/ /g' data.csv | head -2", "sed '$d' notes.txt",
    "sed -E 's/([a-z]+),([0-9]+)/\\2:\\1/' data.csv", "sed -n '$p' log.txt",
    "sed 's/a/A/2' notes.txt", "sed -i 's/alpha/omega/' notes.txt && cat notes.txt",
    "awk '{print $1}' log.txt", "awk -F, '{print $2}' data.csv",
    "awk -F, 'NR>1 {print $1, $3}' data.csv", "awk '{s+=$1} END {print s}' nums.txt",
    "awk '/ERROR/ {print NR\": \"$0}' log.txt", "awk '{print NF}' words.txt",
    "awk -F, 'NR>1 && $2 > 30 {print $1}' data.csv", "awk '{print $NF}' words.txt",
    "awk 'BEGIN {print \"start\"} END {print NR}' notes.txt",
    "awk -F, '{printf \"%-5s|%3d\\n\", $1, $2}' data.csv",
    "awk 'length($0) > 4' notes.txt", "awk '{c[$1]++} END {for (k in c) print k, c[k]}' "
    "notes.txt | sort", "awk -v n=2 'NR==n' notes.txt", "awk '{print toupper($0)}' words.txt",
    # the shell itself
    "echo hello world", "echo 'single  quoted'", "echo \"home is $HOME\"", "echo $((3 * 7 + 1))",
    "echo $(cat notes.txt | wc -l) lines", "X=5; echo $X $((X * 2))", "false; echo $?",
    "cat nope.txt 2>/dev/null; echo status $?", "cat nope.txt 2>&1 | head -1",
    "ls nope > out.txt 2>&1; cat out.txt", "echo a > f.txt && echo b >> f.txt && cat f.txt",
    "cd src && ls && pwd", "cd nope", "cd src; cat ../notes.txt | head -1", "true && echo yes",
    "false || echo fallback", "echo *.md", "echo src/*", "echo 'no*glob'", "echo nomatch*.zz",
    "printf '%s-%s\\n' a b c d", "printf '%5.2f\\n' 3.14159", "printf 'x=%d\\n' 42",
    "seq 5", "seq 2 2 10", "seq -s, 1 4", "nl words.txt", "cat -n words.txt",
    "echo ${UNSET:-default}", "echo \"$(pwd)\" | sed 's|.*/||' | wc -c", "pwd",
    # files
    "mkdir -p a/b/c && find a | sort", "mkdir src", "touch new.txt && ls new.txt",
    "cp notes.txt copy.txt && diff notes.txt copy.txt && echo same",
    "cp -r src backup && ls backup", "cp src x", "mv notes.txt moved.txt && ls *.txt",
    "rm notes.txt && ls notes.txt", "rm -rf src && ls", "rm src", "rm nope.txt",
    "basename src/app.py", "basename src/app.py .py", "dirname src/lib/helpers.js",
    "diff notes.txt words.txt", "diff -u notes.txt nums.txt | tail -n +3",
    "test -f notes.txt && echo file", "[ -d src ] && echo dir", "[ -e nope ] || echo missing",
    "[ 3 -gt 2 ] && echo bigger", "test -z \"\" && echo empty",
    "find . -name '*.py' | sort | xargs wc -l", "ls src/*.py | xargs -n1 basename",
    "cat notes.txt | sort | uniq | wc -l", "unknowncmd --flag",
    "python3 -c 'print(6*7)'", "echo 'print(1+1)' > t.py && python3 t.py",
    # more of the same kinds
    "ls -lh", "ls -1a src", "ls src/", "ls -d */", "grep -in 'STEP' manual/guide.md",
    "grep -c '' notes.txt", "grep -E 'a{2}|mm' notes.txt words.txt", "grep -h def src/*.py",
    "grep -F 'a+b' src/util.py", "grep -L TODO src/*.py", "grep -o '[0-9]\\+' nums.txt | head -2",
    "find . -name '*.py' -exec wc -l {} + | sort", "find . -mindepth 2 -type f | sort",
    "find . -type f -not -path './src/*' | sort", "head -c 10 README.md", "head -n -2 notes.txt",
    "wc -l *.txt", "sort -t, -k2,2n -k1,1 data.csv", "cut -d' ' -f2- words.txt",
    "cut -d, -f1 --complement data.csv", "echo HELLO | tr '[:upper:]' '[:lower:]'",
    "sed -n '1p;3p' notes.txt", "sed -n '/INFO/,/ERROR/p' log.txt", "sed = words.txt",
    "sed 's#/#_#g' <<< 'a/b/c'", "sed -n '2{p;q}' notes.txt", "sed '/^$/d' src/app.py",
    "awk 'NR%2==0' notes.txt", "awk '$1==\"ERROR\"{n++} END{print n}' log.txt",
    "awk '{gsub(/a/,\"A\"); print}' notes.txt", "awk 'BEGIN{x=10/4; print x}'",
    "awk '{ if ($1 > 10) print $1; else print \"small\" }' nums.txt",
    "awk -F, '$2 ~ /^2/ {print $1}' data.csv", "awk 'NR==2,NR==4' notes.txt",
    "echo $((10 / 3)) $((10 % 3)) $((2 ** 8))", "echo $((-7 / 2))", "echo a\\ b",
    "echo -e 'a\\tb'", "N=$(wc -l < notes.txt); echo \"$N\"", "echo $(echo $(echo deep))",
    "echo {a,b} x{1..3}", "cd .. ; pwd", "mkdir a && mkdir a", "mkdir x/y", "cp nope.txt x",
    "cp notes.txt src/ && ls src", "rm -f nope.txt; echo $?", "diff nope.txt notes.txt",
    "printf '%05d\\n' 42", "printf '%-10s|\\n' left", "[ -s empty.txt ]; echo $?",
    "echo err 1>&2", "cat > new.py << 'EOF'\nprint('hi $HOME')\nEOF\ncat new.py",
    "cat <<EOF\nsum=$((1+2))\nEOF", "(cd src && ls); pwd", "{ echo a; echo b; } > g.txt; cat g.txt",
    "for f in *.txt; do echo \"== $f\"; head -1 \"$f\"; done",
    "if grep -q zzz notes.txt; then echo found; else echo absent; fi",
    "i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done",
    "ls src | while read f; do echo \"<$f>\"; done", "wc -l $(find src -name '*.py' | sort)",
    "for i in 1 2 3 4; do [ $i = 3 ] && break; echo $i; done",
    "grep -oE '[0-9]+' data.csv | paste -sd+ | bc", "tee out.txt < notes.txt | wc -l",
    "diff <(echo a) <(echo b)", "env | grep HOME", "true | false; echo $?", "! true; echo $?",
    # names with spaces, text without a last newline, tabs, bytes beyond ASCII
    "cat 'my file.txt'", "wc -l my\\ file.txt", "ls my*", "mv 'my file.txt' mine.txt && ls m*",
    "wc -c unicode.txt", "wc -m unicode.txt", "sort unicode.txt", "tr a-z A-Z < unicode.txt",
    "awk '{print length($0)}' unicode.txt", "cat noeol.txt | wc -l", "tail -n 1 noeol.txt",
    "sed 's/o/0/' noeol.txt", "awk '{print NR\": \"$0}' noeol.txt", "nl -ba noeol.txt",
    "cut -f2 tabs.tsv", "awk -F'\\t' '{print $3}' tabs.tsv", "cat -A tabs.tsv",
    "grep -P '\\d+' tabs.tsv", "sed -n '10,12p' big.txt", "tail -n +28 big.txt",
    "head -20 big.txt | tail -5", "awk '{s+=$2} END {print s, s/NR}' big.txt",
    "sort -k2 -n -r big.txt | head -3", "grep -w 'line 1' big.txt", "cut -c1-4 big.txt | uniq -c",
    "echo $(( $(wc -l < big.txt) * 2 ))", "find . -type f -size -1k | sort",
    "cp -r src s2 && echo x >> s2/app.py && rm s2/util.py && diff -r src s2",
    # bash's own conditions and arithmetic
    "[[ -f notes.txt && -d src ]] && echo both", "[[ notes.txt == *.txt ]] && echo glob",
    "[[ abc =~ ^a.c$ ]]; echo $?", "i=0; ((i++)); ((i+=5)); echo $i",
    "while (( n < 3 )); do echo $n; ((n++)); done", "set -e; false; echo never",
    "set -e; false || echo ok; echo after", "timeout 10 cat notes.txt | head -1",
    "md5sum notes.txt", "find . -name '*.txt' -print0 | xargs -0 wc -l | sort",
    "sed -i.bak s/a/b/ notes.txt; ls notes*", "echo a((b", "for x in; do; done",
    "cat data.csv | while IFS=, read -r n a c; do echo $c; done",
    "while read line; do echo \"[$line]\"; done < notes.txt | head -3",
    "f=a/b/c.tar.gz; echo ${f##*/} ${f%%.*} ${f%/*} ${f#*/}",
    "s=hello; echo ${s:1:3} ${s: -2} ${s^^} ${s/l/L} ${s//l/L}",
    "for f in src/*.py; do echo ${f%.py}.txt; done", "arr=(a b); echo ${arr[0]}",
    # commands about commands
    "which ls grep", "command -v python3", "type ls cd", "bash -c 'echo hi $0 $1' x y",
    "sh -c 'ls src | wc -l'", "echo 'echo from script $1' > s.sh && bash s.sh arg",
    # sort's keys and awk's corners
    "sort -t, -k2,2 -k1,1r data.csv", "sort -c notes.txt; echo $?", "sort -k1.2 notes.txt",
    "sort -u -k2,2 -t, data.csv", "sort -s -k2,2n -t, data.csv", "sort -k0 notes.txt",
    "printf '1.5\\n-2\\n.5\\nx\\n10\\n' | sort -n", "printf 'B\\na\\nC\\nb\\n' | sort -f",
    "awk '{ total[$3] += $2 } END { for (c in total) print c, total[c] }' FS=, data.csv | sort",
    "awk 'BEGIN{print 1e6, 0.1+0.2, 100000000, 2^31, -3/2, 1/3}'",
    "awk '{print $1 > \"out.txt\"} END{close(\"out.txt\")}' notes.txt; wc -l < out.txt",
    "awk '!seen[$0]++' notes.txt", "awk 'NR>1{print prev} {prev=$0}' notes.txt",
    "awk 'BEGIN{n=split(\"a b  c\", arr); print n, arr[3]}'", "awk '{print}' nope.txt",
    "awk 'BEGIN { printf \"%03d %+d %.3s|%-4s|\\n\", 7, 5, \"abcdef\", \"x\" }'",
    # what goes wrong, in GNU's and bash's words
    "tr a", "cut", "cut -f0 notes.txt", "mkdir -p src/app.py/x", "cp -r src notes.txt",
    "mv src notes.txt", "head -c x notes.txt", "ls -l nope src", "(exit 4); echo $?",
    "echo $(false); echo $?", "ls nope 2>&1 >/dev/null | wc -l", "cat < nope", "echo > nodir/x",
    "cd src/app.py", "rm -r nope", "echo a | xargs nope", "[ 1 -lt 2", "test 1 -gt",
    # case and shell functions
    "case notes.txt in *.txt) echo text;; *.py) echo python;; *) echo other;; esac",
    "for f in src/*.py data.csv; do case \"$f\" in *.py) echo \"py: $f\";; *) echo \"other: $f\";; "
    "esac; done", "x=2; case $x in 1|2) echo small;; [3-9]) echo big;; esac",
    "case nope in a) echo a;; esac; echo $?", "case x in\n  a) echo a ;;\n  *)\n    echo default\n"
    "    ;;\nesac", "for f in *.md; do case $f in README*) continue;; esac; echo $f; done",
    "greet() { echo \"Hello, ${1:-world}\"; }; greet; greet Ann",
    "function count { wc -l < \"$1\"; }; count notes.txt",
    "f() { local x=$1; echo $((x * 2)); return 3; }; f 21; echo $?",
    "lines() { for f in \"$@\"; do echo \"$f: $(wc -l < \"$f\")\"; done; }; lines notes.txt words.txt",
    "x=outer; f() { local x=inner; echo $x; }; f; echo $x",
    "die() { echo \"error: $*\" >&2; return 1; }; die bad thing || echo handled",
    "count=0; inc() { count=$((count+1)); }; inc; inc; echo $count",
    "f() { shift; echo $# $@; }; f a b c", "local x=1", "return 3; echo $?",
    # the environment and commands about commands
    "which nope; echo $?", "command -v ls", "command -v cd", "command -v nope || echo none",
    "printenv HOME", "env X=1 sh -c 'echo $X'", "export NAME=world; bash -c 'echo hello $NAME'",
    "type -t ls cd", "echo 'X=5' > vars.sh; . ./vars.sh; echo $X",
    "echo 'echo ran $1' > s.sh && chmod +x s.sh && ./s.sh go", "echo 'echo hi' > s.sh; ./s.sh",
    "printf '#!/usr/bin/env python3\\nprint(42)\\n' > p.py; chmod +x p.py; ./p.py",
    # facts about files, lines reshaped
    "stat -c '%s %n' notes.txt data.csv", "stat -c '%F' src notes.txt empty.txt", "stat nope",
    "chmod 600 notes.txt && stat -c '%a %A' notes.txt", "readlink -f src/app.py",
    "basename -s .py src/app.py src/util.py", "echo hi | tee a.txt b.txt; cat a.txt b.txt",
    "paste -d, notes.txt nums.txt", "sha256sum notes.txt data.csv",
    "sort -u notes.txt > a.txt; printf 'alpha\\nbeta\\nzeta\\n' > b.txt; comm a.txt b.txt",
    "sort -u notes.txt > a.txt; printf 'alpha\\nzeta\\n' > b.txt; comm -12 a.txt b.txt",
    "rev words.txt", "tac notes.txt | head -3", "fold -w 5 README.md", "column -t -s, data.csv",
    "grep -B1 -A1 gamma notes.txt", "grep -C1 retry log.txt", "grep -m1 alpha notes.txt",
    "grep -rn --exclude-dir=lib return src | sort", "uniq -c notes.txt", "tail -c 8 notes.txt",
    "sed -E 's/([0-9]+)/<\\1>/g' nums.txt", "sed '2a inserted' words.txt", "sed -n '$=' notes.txt",
    "sed -i '1i header' notes.txt && head -2 notes.txt", "awk '{print $2, $1}' OFS=: words.txt",
    "awk -F, 'NR>1{s+=$2; n++} END{printf \"%.2f\\n\", s/n}' data.csv",
    "ls src/*.py | xargs -I{} sh -c 'echo {}: $(wc -l < {})'",
    "find . -name '*.txt' -exec grep -l alpha {} \\; | sort", "seq -w 8 11", "expr 7 / 2",
    "sleep 0.1 && echo done",
    # options of the shell, expansions
    "set -o pipefail; false | true; echo $?", "set -euo pipefail; echo start; cat nope.txt | wc -l; "
    "echo end", "set -u; echo $NOPE; echo after", "echo $#; set -- x y; echo $# $2",
    "trap 'echo cleanup' EXIT; exit 3", "echo {a..e..2} {01..10..3}", "echo $((16#ff)) $((010 + 1))",
    "ls *.{txt,md}", "IFS=, read -r a b c <<< 'x,y,z'; echo $b",
    "while IFS= read -r line; do echo \"${#line}\"; done < words.txt",
]


def make_folder():
    folder = Path(tempfile.mkdtemp(prefix="shell-corpus-")).resolve()
    folder.chmod(0o755)   # as the stand-in world shows the run's folder
    for name, text in FILES.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


_LONG = re.compile(r"^([-dl][rwxsStT-]{9}\S*) +(\d+) +\S+ +\S+ +(\S+) +\w{3} +\d+ +[\d:]+ (.*)$",
                   re.MULTILINE)


def normalise(text, folder):
    text = text.replace(str(folder), "ROOT")
    text = _LONG.sub(lambda m: f"{m[1]} {m[2]} OWNER GROUP {m[3]} TIME {m[4]}", text)
    if re.search(r"^\S+ +\d+ OWNER GROUP \d+ TIME \.\.$", text, re.MULTILINE):
        text = re.sub(r"^\S+ +\d+ OWNER GROUP \d+ TIME \.\.$", "PARENT ..", text,
                      flags=re.MULTILINE)
        text = re.sub(r"^total \d+$", "total", text, flags=re.MULTILINE)
    return text


def real(command):
    folder = make_folder()
    try:
        env = {"LC_ALL": "C", "TZ": "UTC", "HOME": str(folder),
               "PATH": "/usr/local/bin:/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}
        done = subprocess.run(["bash", "-c", command.replace("python3 ", f"{sys.executable} ")],
                              cwd=folder, env=env, capture_output=True, text=True, timeout=20)
        return (done.returncode, normalise(done.stdout, folder),
                normalise(done.stderr, folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def standin(command):
    from loopstep.runtime.standins.shell import Shell
    folder = make_folder()
    saved = os.getcwd()
    try:
        os.chdir(folder)
        code, out, err = Shell(folder).run_line(command, str(folder))
        return code, normalise(out, folder), normalise(err, folder)
    finally:
        os.chdir(saved)
        shutil.rmtree(folder, ignore_errors=True)


def compare():
    """[(command, real, stand-in)] for every command of the corpus."""
    return [(command, real(command), standin(command)) for command in COMMANDS]


if __name__ == "__main__":
    rows = compare()
    same = [r for r in rows if r[1] == r[2]]
    for command, expected, got in rows:
        if expected != got:
            print(f"--- {command}\n  bash:     {expected!r}\n  stand-in: {got!r}")
    print(f"{len(same)} of {len(rows)} identical ({100 * len(same) / len(rows):.0f} %)")
