"""The wheel carries the built outputs (the fast boot set, the precompiled recorder): its
build_py runs the same build as `make build` (scripts/build.py) before it collects the
package data, so an installed wheel needs no Node. The rest is in pyproject.toml."""
import importlib.util
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

BUILD = Path(__file__).resolve().parent / "scripts" / "build.py"


class BuildPyWithOutputs(build_py):
    def run(self):
        # what an earlier build left in build/lib (a file since removed or renamed, an old
        # bundle) must not reach this wheel
        shutil.rmtree(Path(self.build_lib) / "loopstep", ignore_errors=True)
        # `pip install -e .` serves from the source tree, where `make build` builds; a
        # source distribution has no scripts/ and ships the outputs it was made with.
        if not self.editable_mode and BUILD.is_file():
            spec = importlib.util.spec_from_file_location("loopstep_build", BUILD)
            build = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(build)
            build.build(log=lambda line: print(line, flush=True))
            self.__dict__.pop("data_files", None)   # collected again, with the outputs
        super().run()


setup(cmdclass={"build_py": BuildPyWithOutputs})
