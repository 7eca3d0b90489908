"""`spec-debug report runs` names the latest run in the folder. A run folder copied under a name
of one's own (`cp -r runs/<id> runs/before-fix`, kept for the incident) sorts after every run id
('b' > '2'), so the hint named the copy as the latest run. Now the latest is the last run id, and
where no folder has a run id's name, the most recently written record."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.record import PlaybookRef, RunRecord
from spec_debug.store import RunStore, load_record


def _saved_run(out: Path) -> Path:
    """A run folder as `spec-debug run` makes it: RunStore names it and writes run.json."""
    store = RunStore.create(out, "p")
    store.save(RunRecord(run_id=store.run_dir.name, playbook=PlaybookRef(name="p", path="p.yaml", sha256="0" * 64),
                         started_at="2026-12-02T07:00:00.000Z", status="passed"))
    return store.run_dir


def _latest_hint(out: Path) -> str:
    with pytest.raises(UsageError) as caught:
        load_record(out)
    return caught.value.hint


def test_a_folder_named_by_hand_is_not_named_the_latest_run(tmp_path):
    out = tmp_path / "runs"
    run_dir = _saved_run(out)
    shutil.copytree(run_dir, out / "before-fix")
    assert _latest_hint(out) == f"{out} holds 2 run(s); the latest: spec-debug report {run_dir}"


def test_with_no_run_id_among_them_the_newest_record_is_the_latest(tmp_path):
    out = tmp_path / "runs"
    run_dir = _saved_run(out)
    shutil.copytree(run_dir, out / "zz-older")
    run_dir.rename(out / "aa-newer")
    os.utime(out / "zz-older" / "run.json", (1_700_000_000, 1_700_000_000))
    os.utime(out / "aa-newer" / "run.json", (1_800_000_000, 1_800_000_000))  # written after the other one
    assert _latest_hint(out) == f"{out} holds 2 run(s); the latest: spec-debug report {out / 'aa-newer'}"
