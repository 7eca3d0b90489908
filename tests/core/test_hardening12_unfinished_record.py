"""`spec-debug report` on a run folder whose run.json never appeared says what happened.

A controller killed (SIGKILL, an OOM kill, a closed laptop) between creating the run folder and
its first rename leaves the folder with, at most, write_atomic's unfinished .run.json.*.tmp.
The report said "pass a runs/<run-id> directory or its run.json" to someone who had passed
exactly that.
"""

from __future__ import annotations

from spec_debug.store import RunStore
from tests.conftest import run_cli


def test_a_run_folder_with_only_the_unfinished_temp_file(tmp_path):
    store = RunStore.create(tmp_path / "runs", "perf_regression")
    # What write_atomic (tempfile.mkstemp(prefix=".run.json.", suffix=".tmp")) leaves mid-write.
    (store.run_dir / ".run.json.k2j3x9.tmp").write_text('{\n  "run_id": "' + store.run_dir.name + '",\n  "playbook": {')
    result = run_cli("report", str(store.run_dir))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    said = " ".join(result.stderr.split())
    assert "stopped before its first record was written" in said and ".run.json.k2j3x9.tmp" in said, said
    assert "pass a runs/<run-id> directory" not in said, said


def test_a_run_folder_with_artifacts_but_no_record(tmp_path):
    store = RunStore.create(tmp_path / "runs", "perf_regression")
    store.artifact_path("local").mkdir(parents=True)
    result = run_cli("report", str(store.run_dir / "run.json"))
    assert result.code == 2, result.stderr
    assert "stopped before its first record was written" in " ".join(result.stderr.split()), result.stderr


def test_a_folder_that_is_no_run_keeps_the_usual_hint(tmp_path):
    result = run_cli("report", str(tmp_path))
    assert result.code == 2 and "pass a runs/<run-id> directory" in " ".join(result.stderr.split()), result.stderr


def test_a_record_cut_inside_a_step_output_is_called_cut_off(write_playbook, tmp_path):
    # Most of a record is step output, so a copy stopped half-way (scp, rsync of a running
    # run, a full disk on the copy's side) usually ends inside a string. json then reports
    # where that string started, and the "it was cut off" hint was missing.
    playbook = write_playbook("name: p\nsteps:\n  - id: log\n    run: seq 1 2000\n")
    ran = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    assert ran.code == 0, ran.stderr
    (run_dir,) = (tmp_path / "runs").iterdir()
    text = (run_dir / "run.json").read_text()
    cut = text.index("\\n1000\\n")  # in the middle of the step's stdout
    (run_dir / "run.json").write_text(text[:cut])
    result = run_cli("report", str(run_dir))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    said = " ".join(result.stderr.split())
    assert "Unterminated string" in said and "it was cut off" in said, said
