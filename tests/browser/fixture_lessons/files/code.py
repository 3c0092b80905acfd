import os
from pathlib import Path


def write_files():
    Path("data.bin").write_bytes(bytes(range(8)))
    Path("big.txt").write_text("长" * 30000)
    os.remove("old.txt")
    Path("notes.txt").write_text("kept\nadded\n")
    return sorted(os.listdir("."))
