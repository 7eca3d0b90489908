"""`run --json > run.json` is how CI keeps the record (docs/reports.md). When the runs folder was
full or read-only the run stopped with exit 3 and stdout held nothing: the steps' results were
in no file at all. stdout now gets the record as it stands; the error still goes to stderr."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_cli


@pytest.fixture
def mounted(tmp_path: Path):
    """Mounts a tmpfs of the given size (root with CAP_SYS_ADMIN only); unmounted afterwards."""
    points: list[Path] = []

    def mount(size: str) -> Path:
        point = tmp_path / f"mnt{len(points)}"
        point.mkdir()
        made = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(point)], capture_output=True)
        if made.returncode != 0:
            pytest.skip("cannot mount a tmpfs here (not root, or no CAP_SYS_ADMIN)")
        points.append(point)
        return point
    yield mount
    for point in points:
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


def test_a_read_only_runs_folder_still_gives_the_record_on_stdout(mounted, write_playbook) -> None:
    runs = mounted("10m")
    playbook = write_playbook(f"""name: read_only
steps:
  - id: first
    run: echo first
  - id: remount
    run: echo before; mount -o remount,ro {runs}; echo after
""")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(runs), "--json")
    assert result.code == 3
    assert "run.json: Read-only file system" in result.stderr
    record = json.loads(result.stdout)
    assert [(s["id"], s["status"], s["stdout"]) for s in record["steps"]] == [
        ("first", "passed", "first\n"), ("remount", "passed", "before\nafter\n")]


def test_a_full_runs_folder_still_gives_the_record_on_stdout(mounted, write_playbook) -> None:
    runs = mounted("100k")
    playbook = write_playbook("""name: full
steps:
  - id: small
    run: echo small
  - id: big
    run: head -c 300000 /dev/zero | tr '\\\\0' 'x' | fold -w 100
""")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(runs), "--json")
    assert result.code == 3
    assert "No space left on device" in result.stderr
    record = json.loads(result.stdout)
    assert [(s["id"], s["status"]) for s in record["steps"]] == [("small", "passed"), ("big", "passed")]
