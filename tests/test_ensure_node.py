"""scripts/ensure_node.sh finds a Node 20+, or fetches one with npm, and says what to do
when it cannot. Run against stand-ins: a PATH of the few tools the script uses, a fake
old or new `node`, a fake `npm` whose `pack` writes a tarball shaped like the npm
registry's node-linux-<arch> package, a fake `id` for a user who is not root."""
import platform
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "ensure_node.sh"
TOOLS = ("bash", "sed", "head", "tail", "id", "uname", "mktemp", "tar", "gzip", "rm", "mkdir",
         "mv", "dirname", "cat", "env")
ARCH = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine())


def fake_node(path: Path, version: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n[ \"$1\" = --version ] && echo {version}\n")
    path.chmod(0o755)
    return path


@pytest.fixture()
def sandbox(tmp_path):
    """{"bin": a PATH folder with only the basic tools, "run": run the script in it}."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in TOOLS:
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    cache = tmp_path / "cache" / "node"

    def run(**env):
        base = {"PATH": str(bin_dir), "HOME": str(tmp_path), "LOOPSTEP_NODE_CACHE": str(cache)}
        return subprocess.run([str(SCRIPT)], env={**base, **env}, capture_output=True, text=True,
                              timeout=60)
    return {"bin": bin_dir, "cache": cache, "run": run, "tmp": tmp_path}


def not_root(bin_dir: Path) -> None:
    (bin_dir / "id").unlink()
    (bin_dir / "id").write_text("#!/bin/sh\necho 1000\n")
    (bin_dir / "id").chmod(0o755)


def fake_npm(bin_dir: Path, tmp: Path, node_version: str) -> Path:
    """An `npm` whose `pack NAME` writes node-linux-ARCH-VERSION.tgz (package/bin/node) in
    the working folder and prints its name; every call is logged."""
    package = tmp / "pkg"
    fake_node(package / "package" / "bin" / "node", node_version)
    tarball = tmp / "node.tgz"
    with tarfile.open(tarball, "w:gz") as archive:
        archive.add(package / "package", arcname="package")
    log = tmp / "npm.log"
    (bin_dir / "npm").write_text(
        f"#!/bin/sh\necho \"$@\" >> {log}\n"
        f"cat {tarball} > node-linux-{ARCH}-{node_version.lstrip('v')}.tgz\n"
        f"echo node-linux-{ARCH}-{node_version.lstrip('v')}.tgz\n")
    (bin_dir / "npm").chmod(0o755)
    return log


def test_a_new_enough_node_on_path_is_used(sandbox):
    node = fake_node(sandbox["bin"] / "node", "v22.3.0")
    done = sandbox["run"]()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(node)


def test_loopstep_node_must_be_new_enough(sandbox):
    old = fake_node(sandbox["tmp"] / "old" / "node", "v18.19.0")
    done = sandbox["run"](LOOPSTEP_NODE=str(old))
    assert done.returncode == 1
    assert "not a Node.js 20 or newer" in done.stderr
    new = fake_node(sandbox["tmp"] / "new" / "node", "v20.11.1")
    done = sandbox["run"](LOOPSTEP_NODE=str(new))
    assert done.returncode == 0 and done.stdout.strip() == str(new)


@pytest.mark.skipif(ARCH is None, reason=f"no node-linux package for {platform.machine()}")
def test_an_old_node_gets_node_20_from_the_npm_registry_once(sandbox):
    """Debian 12: node 18 on PATH. npm fetches node-linux-ARCH@20 into the cache; the
    next run takes it from the cache without asking npm again."""
    fake_node(sandbox["bin"] / "node", "v18.19.0")
    log = fake_npm(sandbox["bin"], sandbox["tmp"], "v20.19.5")
    not_root(sandbox["bin"])
    done = sandbox["run"]()
    assert done.returncode == 0, done.stderr
    node = sandbox["cache"] / "bin" / "node"
    assert done.stdout.strip() == str(node)
    assert subprocess.run([str(node), "--version"], capture_output=True, text=True).stdout == "v20.19.5\n"
    assert log.read_text().split() == ["pack", "--silent", f"node-linux-{ARCH}@20"]
    again = sandbox["run"]()
    assert again.returncode == 0 and again.stdout.strip() == str(node)
    assert len(log.read_text().splitlines()) == 1


@pytest.mark.skipif(ARCH is None, reason=f"no node-linux package for {platform.machine()}")
def test_a_package_whose_node_is_too_old_is_refused(sandbox):
    fake_node(sandbox["bin"] / "node", "v18.19.0")
    fake_npm(sandbox["bin"], sandbox["tmp"], "v19.0.0")
    not_root(sandbox["bin"])
    done = sandbox["run"]()
    assert done.returncode == 1
    assert "does not run here" in done.stderr
    assert not sandbox["cache"].exists()


def test_without_node_20_nor_npm_it_says_what_to_do(sandbox):
    fake_node(sandbox["bin"] / "node", "v18.19.0")
    not_root(sandbox["bin"])
    done = sandbox["run"]()
    assert done.returncode == 1 and done.stdout == ""
    assert "Node.js 20 or newer" in done.stderr and "LOOPSTEP_NODE" in done.stderr
    assert "found: " in done.stderr and "18" in done.stderr
