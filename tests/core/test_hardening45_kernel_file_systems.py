"""`-o /proc/x.md` said "No such file or directory" with the hint "the folder does not exist:
create it first", of a /proc that is there and takes no file; `-o /sys/x.md` said "Permission
denied", to root too. Now the message names the kernel file system the path lies on, and the hint
a folder on a disk; the same for `run --out /proc/runs`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli


def _mounted(point: str, kind: str) -> bool:
    try:
        lines = Path("/proc/self/mounts").read_text().splitlines()
    except OSError:
        return False
    return any(line.split()[1:3] == [point, kind] for line in lines)


needs_proc = pytest.mark.skipif(not _mounted("/proc", "proc"), reason="no proc file system at /proc")
HINT = "  hint: write to a folder on a disk (for runs: --out DIR)"


@needs_proc
@pytest.mark.parametrize("command", [("schema", "-o"), ("findings", "--markdown")])
def test_a_file_in_proc_names_the_proc_file_system(command: tuple[str, str]) -> None:
    result = run_cli(*command, "/proc/x.md")
    assert result.code == 3
    assert result.stderr.splitlines() == [
        "error: cannot write /proc/x.md: /proc is the kernel's proc file system, which holds no files of yours "
        "(No such file or directory)", HINT]


@needs_proc
def test_a_folder_in_proc_is_not_a_folder_to_create_first() -> None:
    result = run_cli("schema", "-o", "/proc/incidents/x.md")
    assert result.code == 3
    assert result.stderr.splitlines() == [
        "error: cannot create the folder /proc/incidents: /proc is the kernel's proc file system, which holds no "
        "files of yours (No such file or directory)", HINT]


@needs_proc
def test_runs_under_proc_name_the_proc_file_system() -> None:
    result = run_cli("run", "host_smoke", "--host", "local", "--out", "/proc/runs")
    assert result.code == 2
    assert result.stderr.splitlines()[-2:] == [
        "error: cannot create the runs directory /proc/runs: /proc is the kernel's proc file system, which holds "
        "no files of yours (No such file or directory)", HINT]


@pytest.mark.skipif(not _mounted("/sys", "sysfs"), reason="no sysfs at /sys")
def test_a_file_in_sys_names_sysfs() -> None:
    result = run_cli("schema", "-o", "/sys/x.md")
    assert result.code == 3
    lines = result.stderr.splitlines()
    assert lines[0].startswith("error: cannot write /sys/x.md: /sys is the kernel's sysfs file system, which holds no files of yours (")
    assert lines[1:] == [HINT]


def test_a_missing_folder_on_a_disk_keeps_its_hint(tmp_path: Path) -> None:
    blocked = tmp_path / "ro"
    blocked.mkdir()
    blocked.chmod(0o500)
    try:
        result = run_cli("schema", "-o", str(blocked / "x.md"))
    finally:
        blocked.chmod(0o700)
    assert "kernel" not in result.stderr


@needs_proc
def test_junit_in_proc_is_refused_before_the_run(tmp_path: Path) -> None:
    result = run_cli("run", "host_smoke", "--host", "local", "--out", str(tmp_path / "runs"), "--junit", "/proc/junit.xml")
    assert result.code == 2
    assert result.stderr.splitlines()[-2:] == [
        "error: --junit /proc/junit.xml: /proc is the kernel's proc file system, which holds no files of yours",
        "  hint: name a file on a disk, e.g. --junit junit.xml"]
    assert not (tmp_path / "runs").exists()  # nothing ran
