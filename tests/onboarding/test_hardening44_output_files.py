"""`-o FILE`, the user's own file: `report -o incidents/r.md` said "the folder does not exist"
where analyze, distill, explain and schema make it; and a file its owner made read-only (`chmod
a-w postmortem.md`, the copy signed off, which the shell's `>` refuses) was replaced without a
word by every command, the new file renamed over it. Now report makes the folder as the others
do, and every -o keeps a read-only file, says so in one line and exits 3."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import only_run, run_cli

SESSION = [
    {"type": "user", "uuid": "u0", "parentUuid": None, "sessionId": "s1", "timestamp": "2026-03-02T00:00:00.000Z",
     "message": {"role": "user", "content": "EAGLE-3 made serving slower on gpu01"}},
    {"type": "assistant", "uuid": "u1", "parentUuid": "u0", "sessionId": "s1", "timestamp": "2026-03-02T00:00:01.000Z",
     "message": {"role": "assistant", "content": [
         {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ssh gpu01 nvidia-smi -L"}}]}},
    {"type": "user", "uuid": "u2", "parentUuid": "u1", "sessionId": "s1", "timestamp": "2026-03-02T00:00:02.000Z",
     "message": {"role": "user", "content": [
         {"type": "tool_result", "tool_use_id": "t1", "content": "GPU 0: NVIDIA H100 80GB HBM3"}]}},
]


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs")
    assert run_cli("run", "host_smoke", "--host", "local", "--out", str(out)).code in (0, 1)
    return only_run(out)[0]


def test_report_makes_the_folder_it_writes_in(tmp_path: Path, run_folder: Path) -> None:
    target = tmp_path / "incidents" / "gpu01" / "report.md"
    result = run_cli("report", str(run_folder), "-o", str(target))
    assert result.code == 0, result.stderr
    assert target.read_text().startswith("# Incident report: host_smoke")


def _session(tmp_path: Path) -> Path:
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in SESSION))
    return path


@pytest.mark.parametrize("command", ["report", "analyze", "explain", "schema"])
def test_a_read_only_file_is_kept(tmp_path: Path, run_folder: Path, command: str) -> None:
    signed_off = tmp_path / "postmortem.md"
    signed_off.write_text("the signed-off copy\n")
    os.chmod(signed_off, 0o444)
    args = {"report": ("report", str(run_folder)), "analyze": ("analyze", str(_session(tmp_path))),
            "explain": ("explain", "host_smoke"), "schema": ("schema",)}[command]
    result = run_cli(*args, "-o", str(signed_off))
    assert result.code == 3
    assert result.stderr.splitlines()[0] == f"error: cannot write {signed_off}: the file is read-only (mode 0444); it is kept"
    assert "Traceback" not in result.stderr
    assert signed_off.read_text() == "the signed-off copy\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temp file left


def test_a_writable_file_is_still_replaced(tmp_path: Path, run_folder: Path) -> None:
    earlier = tmp_path / "report.md"
    earlier.write_text("an earlier render\n")
    os.chmod(earlier, 0o640)
    assert run_cli("report", str(run_folder), "-o", str(earlier)).code == 0
    assert earlier.read_text().startswith("# Incident report: host_smoke")
    assert earlier.stat().st_mode & 0o777 == 0o640
