"""The runs folder went read-only while a step ran (a file system remounted read-only on I/O
errors, as ext4's errors=remount-ro does): removing the step's spill file, whose output the
record already held, raised, and the host ended as "internal error: OSError: Read-only file
system", the step's result lost. The spill file is now left in place; the run goes on, and what
stops it is run.json that cannot be written, said as such (exit 3)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_cli


@pytest.fixture
def mounted(tmp_path: Path):
    """A small tmpfs of our own (root with CAP_SYS_ADMIN only), unmounted afterwards."""
    point = tmp_path / "mnt"
    point.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=10m", "tmpfs", str(point)], capture_output=True)
    if made.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (not root, or no CAP_SYS_ADMIN)")
    yield point
    subprocess.run(["umount", "-l", str(point)], capture_output=True)


def test_a_runs_folder_turned_read_only_mid_step_is_no_internal_error(mounted: Path, write_playbook) -> None:
    playbook = write_playbook(f"""name: read_only
steps:
  - id: first
    run: echo first
  - id: remount
    run: echo before; mount -o remount,ro {mounted}; echo after
  - id: last
    run: echo last
""")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(mounted))
    assert result.code == 3
    assert "internal error" not in result.stdout + result.stderr
    assert " passed remount" in result.stdout + result.stderr
    lines = (result.stdout + result.stderr).splitlines()
    assert lines[-2].startswith(f"error: cannot write {mounted}/")
    assert lines[-2].endswith("/run.json: Read-only file system (the previous version is kept)")
    assert lines[-1] == "  hint: write to a folder you can write to (for runs: --out DIR)"
