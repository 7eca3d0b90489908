"""Files spec-debug writes get the modes any other tool would give them: a report written for
the team into a shared folder, or a web server's docroot, must be readable by the team."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

from tests.conftest import only_run


def _mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_run_record_and_reports_follow_the_umask_and_keep_an_existing_files_mode(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: modes\nsteps:\n  - id: a\n    run: echo hi\n")
    out = tmp_path / "runs"
    shared = tmp_path / "www" / "incident.html"
    shared.parent.mkdir()
    shared.write_text("old")
    os.chmod(shared, 0o640)
    script = (
        f"umask 022 && {sys.executable} -m spec_debug run {playbook} --host local --out {out} >/dev/null && "
        f"{sys.executable} -m spec_debug report {out}/*/ -o {shared} --format html"
    )
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    run_dir, _ = only_run(out)
    # mkstemp made every one of these 0600: only the person who ran it could read the record.
    assert _mode(run_dir / "run.json") == 0o644
    assert _mode(run_dir / "report.md") == 0o644
    assert _mode(shared) == 0o640 and "<html" in shared.read_text()


def test_runs_started_together_each_get_their_own_folder_and_record(tmp_path):
    # CI matrix jobs and `for h in gpu0{1..4}; do spec-debug run ... & done` share one runs/.
    from datetime import datetime, timezone

    from spec_debug.store import new_run_id

    same_instant = datetime(2026, 11, 30, 4, 0, 0, tzinfo=timezone.utc)
    assert len({new_run_id("perf_regression", same_instant) for _ in range(200)}) == 200

    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: together\nsteps:\n  - id: a\n    run: echo $PPID\n")
    out = tmp_path / "runs"
    procs = [
        subprocess.Popen([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    for proc in procs:
        _, stderr = proc.communicate(timeout=60)
        assert proc.returncode == 0, stderr
    records = [json.loads(p.read_text()) for p in sorted(out.glob("*/run.json"))]
    assert len(records) == 4
    assert len({r["run_id"] for r in records}) == 4
    assert len({r["steps"][0]["stdout"] for r in records}) == 4  # four different shells, four records
    for path in out.glob("*/run.json"):
        assert json.loads(path.read_text())["run_id"] == path.parent.name
