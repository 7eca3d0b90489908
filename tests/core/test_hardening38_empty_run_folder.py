"""`spec-debug report` on a run folder that holds nothing: the controller was killed (SIGKILL, an
OOM kill, a closed laptop) right after the folder's mkdir, before write_atomic made even its
temporary file; nothing can remove the folder then.

The report said "pass a runs/<run-id> directory or its run.json", and for the bare run id its
footer suggests "a bare run id is looked for in runs/ here": both to someone who had passed
exactly that. The folder's run id name says it is a run whose record never appeared.
"""

from __future__ import annotations

from spec_debug.store import RunStore
from tests.conftest import run_cli


def _said(result) -> str:
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    return " ".join(result.stderr.split())


def test_an_empty_run_folder_is_said_to_be_a_run_stopped_before_its_first_record(tmp_path):
    store = RunStore.create(tmp_path / "runs", "perf_regression")
    said = _said(run_cli("report", str(store.run_dir)))
    assert "stopped before its first record was written" in said, said
    assert "pass a runs/<run-id> directory" not in said, said


def test_an_empty_run_folder_given_by_its_bare_run_id(tmp_path):
    store = RunStore.create(tmp_path / "runs", "perf_regression")
    said = _said(run_cli("report", store.run_dir.name, cwd=tmp_path))
    assert "stopped before its first record was written" in said, said
    assert "a bare run id is looked for" not in said, said


def test_an_empty_folder_that_is_no_run_keeps_the_usual_hint(tmp_path):
    (tmp_path / "notes").mkdir()
    said = _said(run_cli("report", str(tmp_path / "notes")))
    assert "pass a runs/<run-id> directory" in said, said
