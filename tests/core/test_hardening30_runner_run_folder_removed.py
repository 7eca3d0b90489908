"""A run folder removed while its run goes on (a cron job that cleans runs/, an `rm -r` of the
wrong folder): the next write of run.json failed with "cannot write .../run.json: No such file
or directory" and the hint "the folder does not exist: create it first", which sent the user
to mkdir a folder whose run had already stopped. Now the error says what happened."""

from __future__ import annotations

import shutil

import pytest

from spec_debug.store import RecordWriteError, RunStore


def test_a_run_folder_removed_mid_run_is_named_as_removed(tmp_path):
    store = RunStore.create(tmp_path / "runs", "perf_regression")
    store.save_json('{"status": "running"}')
    shutil.rmtree(store.run_dir)
    with pytest.raises(RecordWriteError) as caught:
        store.save_json('{"status": "running"}')
    assert str(caught.value).splitlines()[0] == f"the run folder {store.run_dir} was removed while the run went on: nothing more can be recorded"
    assert "create it first" not in caught.value.hint and "--out DIR" in caught.value.hint
    assert not store.run_dir.exists()  # not written back half: the record it had is gone with it


def test_a_write_that_fails_in_a_run_folder_still_there_keeps_its_own_message(tmp_path):
    store = RunStore.create(tmp_path / "runs", "perf_regression")
    store.save_json('{"status": "running"}')
    (store.run_dir / "run.json").unlink()
    (store.run_dir / "run.json").mkdir()  # a write that fails in a folder that is there
    with pytest.raises(RecordWriteError, match="it is a folder"):
        store.save_json('{"status": "passed"}')
