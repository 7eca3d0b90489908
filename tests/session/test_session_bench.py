"""The throughput bench runs (tiny size) and reports both rates, the ratio and the peak RSS."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "analyze_throughput.py"


def test_bench_reports_rates_ratio_and_rss():
    proc = subprocess.run([sys.executable, str(BENCH), "--mb", "1", "--repeat", "2"], capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr  # 1 = a goal missed, which a 1 MB run may do
    for label in ("bare loop:", "analyze:", "ratio:", "best of 2 each", "peak RSS:"):
        assert label in proc.stdout
    assert "MB/s" in proc.stdout
