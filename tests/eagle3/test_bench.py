"""The benchmark scripts run (small sizes here); the GPU script's FLOP model is exact."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> str:
    out = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_gpu_bench_small_mode_and_flop_model():
    report = json.loads(run("bench/drafter_gpu.py", "--small", "--check-flops", "--tokens", "48",
                            "--samples", "2", "--dtype", "float32", "--json"))
    assert report["flop_check"]["analytic"] == report["flop_check"]["counted"]
    assert report["tokens_per_s"] > 0 and 0 < report["share_of_peak"] < 1
    dry = json.loads(run("bench/drafter_gpu.py", "--dry-run"))
    assert dry["size"]["hidden"] == 7168 and dry["size"]["draft_vocab"] == 32000
    assert dry["peak_tflops"] == 989.0


def test_eval_bench_runs_and_reports_ratio_and_memory():
    out = run("bench/drafter_eval.py", "--samples", "2", "--seq-len", "48", "--hidden", "128",
              "--vocab", "1024", "--draft-vocab", "256", "--stream", "40")
    assert "ratio" in out and "metrics identical: True" in out
    assert "40 samples: peak RSS" in out
