"""`runs/latest -> <newest run id>` (a link kept by hand or by a CI script) beside older runs:
78107913 dated runs by their folder's name only, so the link was passed over and an older run
was named the latest (before it, 'latest' sorted last and was named, rightly). A link is dated
by the run id it points to."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.record import PlaybookRef, RunRecord
from spec_debug.store import load_record, new_run_id


def _run(out: Path, when: datetime) -> Path:
    run_dir = out / new_run_id("p", when)
    run_dir.mkdir(parents=True)
    record = RunRecord(run_id=run_dir.name, playbook=PlaybookRef(name="p", path="p.yaml", sha256="0" * 64),
                       started_at="2026-12-02T07:00:00.000Z", status="passed")
    (run_dir / "run.json").write_text(record.model_dump_json(), encoding="utf-8")
    return run_dir


def test_a_latest_link_to_the_newest_run_is_not_passed_over_for_an_older_run(tmp_path):
    elsewhere, out = tmp_path / "all", tmp_path / "kept"
    newest = _run(elsewhere, datetime(2026, 12, 2, 8, 0, tzinfo=timezone.utc))
    _run(out, datetime(2026, 12, 1, 8, 0, tzinfo=timezone.utc))
    (out / "latest").symlink_to(newest, target_is_directory=True)
    with pytest.raises(UsageError) as caught:
        load_record(out)
    assert caught.value.hint == f"{out} holds 2 run(s); the latest: spec-debug report {out / 'latest'}"
