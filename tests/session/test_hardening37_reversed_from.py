"""A report that names the new reading first, "dropped to 54.8 tok/s from 90 tok/s" or "54.8
tok/s, down from 90 tok/s", was read in the text's order: the postmortem said throughput "went
from 54.8 tok/s to 90 tok/s", a recovery, of a session that reported a regression. The reading
after "from" is the earlier one."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.metrics import extract_metrics
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer


@pytest.mark.parametrize("text, readings", [
    ("Throughput dropped to 54.8 tok/s from 90 tok/s after the upgrade.", [90.0, 54.8]),
    ("decode is now 54.8 tok/s, down from 90 tok/s", [90.0, 54.8]),
    ("Throughput fell to 54.8 tokens/s from 90 tokens/s", [90.0, 54.8]),
    ("It rose to 120 tok/s from ~90 tok/s", [90.0, 120.0]),
    # in time order already: as before
    ("Throughput dropped from 90 tok/s to 54.8 tok/s.", [90.0, 54.8]),
    ("We measured 54.8 tok/s. Then 61.2 tok/s from the second run", [54.8, 61.2]),
])
def test_the_reading_after_from_comes_first(text: str, readings: list[float]) -> None:
    assert [(m.name, m.value) for m in extract_metrics(text)] == [("throughput", v) for v in readings]


def test_the_postmortem_says_the_regression_the_report_says(tmp_path: Path) -> None:
    sid = "ab370000-0000-4000-8000-000000000006"
    w = _Writer(sid, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Our EAGLE-3 deployment on gpu01 dropped to 54.8 tok/s from 90 tok/s. Please find why")
    w.bash("ssh gpu01 nvidia-smi", "NVIDIA-SMI 550.54.15")
    path = tmp_path / f"{sid}.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    md = render_postmortem(analyze_path(path), "md")
    assert "- Throughput went from 90 tok/s [[msg 0]](#msg-0) to 54.8 tok/s [[msg 0]](#msg-0)." in md.splitlines()
