"""EAGLE's own evaluation (SafeAILab/EAGLE eagle/evaluation/speed.py) prints "ratio R", the
EAGLE answers' mean tokens/s over the baseline's, and, with its two commented-out prints
restored, "speed S" and "speed0 S0": the speedup, the throughput and the baseline. A ratio under
1 is speculation slower than the run without it (SD501)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.metrics import extract_metrics
from tests.session.incident_story import _Writer

START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
SESSION = "7e1a0000-0000-4000-8000-00000000bb1e"
# https://github.com/SafeAILab/EAGLE/issues/65 (Llama 2 13B chat on one A100 80GB), as posted
EAGLE_65 = "speed 102.61022168131326\nspeed0 39.460857776166044\nratio 2.600303882478927\n"
SPEED_CMD = "python eagle/evaluation/speed.py"


def _findings(tmp_path: Path, output: str) -> list[str]:
    w = _Writer(SESSION, None, START)
    w.bash(SPEED_CMD, output)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return [line for f in analyze_path(path).findings if f.code == "SD501" for line in f.evidence]


def test_speed_py_output_is_throughput_baseline_and_speedup():
    # before: nothing read
    assert [(m.name, m.value) for m in extract_metrics(EAGLE_65, SPEED_CMD, prose=False)] == \
        [("baseline_throughput", 39.46), ("throughput", 102.61), ("speedup", 2.6)]


def test_a_ratio_under_one_is_sd501(tmp_path):
    # speed.py's default output, the ratio alone (numpy's full-precision float)
    evidence = _findings(tmp_path, "ratio 0.8412276010412231\n")
    # before: no finding
    assert len(evidence) == 1 and "0.841x speedup" in evidence[0]
    assert _findings(tmp_path, EAGLE_65) == []


def test_a_ratio_line_of_another_tool_is_no_speedup():
    assert extract_metrics("compression ratio 2.5\nratio 3\n", prose=False) == []
