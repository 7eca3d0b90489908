"""As root, `-o /dev/x.md` wrote the report into /dev (devtmpfs: memory nobody looks in) and said
it was written, exit 0; `run --out /dev/runs` put the whole run there, `--junit /dev/j.xml` too.
/proc and /sys refuse the file themselves and were already named (test_hardening45_kernel_file_
systems). /dev is refused the same way now, before anything is written; a device there is still
written in place (/dev/null, /dev/stdout), and /dev/shm, a mount of its own, still takes files."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import pytest

from tests.conftest import run_cli


def _dev_mount() -> bool:
    try:
        lines = Path("/proc/self/mounts").read_text().splitlines()
    except OSError:
        return False
    return any(line.split()[1] == "/dev" for line in lines if len(line.split()) > 2)


pytestmark = pytest.mark.skipif(not (hasattr(os, "geteuid") and os.geteuid() == 0 and _dev_mount()),
                                reason="only root can make a file in /dev, and /dev must be a mount")
HINT = "  hint: write to a folder on a disk (for runs: --out DIR)"


@pytest.fixture
def dev_name():
    """A name in /dev no one else uses, removed afterwards whatever the command made there."""
    name = Path("/dev") / f"spec-debug-test-{uuid.uuid4().hex[:8]}"
    yield name
    if name.is_dir():
        shutil.rmtree(name)
    for made in (name, name.with_name(f"{name.name}.md"), name.with_name(f"{name.name}.xml")):
        made.unlink(missing_ok=True)


def _why() -> str:
    kind = next(line.split()[2] for line in Path("/proc/self/mounts").read_text().splitlines()
                if len(line.split()) > 2 and line.split()[1] == "/dev")
    return f"/dev holds the system's device files ({kind}), not files of yours"


def test_a_report_in_dev_is_refused(dev_name: Path) -> None:
    result = run_cli("schema", "-o", f"{dev_name}.md")
    assert result.code == 3
    assert result.stderr.splitlines() == [f"error: cannot write {dev_name}.md: {_why()}", HINT]
    assert not Path(f"{dev_name}.md").exists()


def test_a_folder_in_dev_is_not_made(dev_name: Path) -> None:
    result = run_cli("schema", "-o", str(dev_name / "x.md"))
    assert result.code == 3
    assert result.stderr.splitlines() == [f"error: cannot create the folder {dev_name}: {_why()}", HINT]
    assert not dev_name.exists()


def test_runs_in_dev_are_refused_before_the_run(dev_name: Path) -> None:
    result = run_cli("run", "host_smoke", "--host", "local", "-o", str(dev_name))
    assert result.code == 2
    assert result.stderr.splitlines()[-2:] == [f"error: cannot create the runs directory {dev_name}: {_why()}", HINT]
    assert not dev_name.exists()


def test_junit_in_dev_is_refused_before_the_run(tmp_path: Path, dev_name: Path) -> None:
    result = run_cli("run", "host_smoke", "--host", "local", "--out", str(tmp_path / "runs"), "--junit", f"{dev_name}.xml")
    assert result.code == 2
    assert result.stderr.splitlines()[-2:] == [f"error: --junit {dev_name}.xml: {_why()}",
                                               "  hint: name a file on a disk, e.g. --junit junit.xml"]
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_a_device_in_dev_is_still_written() -> None:
    result = run_cli("schema", "-o", "/dev/null")
    assert result.code == 0, result.stderr
    assert Path("/dev/null").is_char_device()
