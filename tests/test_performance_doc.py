"""docs/performance.md is what bench/report.py makes of bench/results.json and bench/notes.md:
its prose is written in bench/notes.md, so that the next bench run keeps it."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent

# in a process of its own: the bench's modules put the repository on sys.path
MAKE = """
import json, sys
from pathlib import Path
bench = Path(sys.argv[1])
sys.path[:0] = [str(bench), str(bench.parent / "tests")]
import report
sys.stdout.write(report.markdown(json.loads((bench / "results.json").read_text())))
"""


def test_performance_doc_is_the_report_of_the_results_and_notes():
    made = subprocess.run([sys.executable, "-c", MAKE, str(ROOT / "bench")], check=True,
                          capture_output=True, text=True, encoding="utf-8").stdout
    doc = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert made == doc, ("docs/performance.md is not bench/report.py's output: write its "
                         "prose in bench/notes.md")
