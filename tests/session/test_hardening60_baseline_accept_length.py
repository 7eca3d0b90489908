"""postmortem: a no-spec benchmark's accept length is no baseline throughput.

The agent benchmarked EAGLE-3 (95 tok/s), then the server without speculation on another port
(140 tok/s, accept length 1.0), wrote "EAGLE-3 vs no-spec: 95 vs 140 tok/s", and later reached
160 tok/s. The analysis marks both readings of the no-spec benchmark (its throughput and its
accept length) as the baseline's; the postmortem took every marked reading for a baseline
throughput, so the accept length 1.0, the newest, was the baseline: "Throughput went from 95 to
160 tok/s against a 1 tok/s baseline". Only a throughput is a baseline throughput now.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer
from tests.session.test_hardening59_baseline_said_after import BENCH, RESULT


def test_the_baseline_is_the_no_spec_throughput(tmp_path):
    w = _Writer("60600000-0000-4000-8000-0000000000c3", None, datetime(2026, 4, 3, 9, 0, tzinfo=timezone.utc))
    w.prompt("vLLM with the EAGLE-3 draft is slower than without it on gpu03. Please investigate.")
    w.bash(f"ssh ubuntu@gpu03 '{BENCH.format(port='8000')}'", RESULT.format(tput="95.0", accept="1.8"))
    w.bash(f"ssh ubuntu@gpu03 '{BENCH.format(port='8001')}'", RESULT.format(tput="140.0", accept="1.0"),
           text="Now the no-spec server on 8001.")
    w.bash("ssh gpu03 'nvidia-smi'", "| 0  H100  80GB | 71000MiB / 81559MiB |",
           text="EAGLE-3 vs no-spec: 95 vs 140 tok/s.")
    w.bash(f"ssh ubuntu@gpu03 '{BENCH.format(port='8000')} --max-concurrency 4'", RESULT.format(tput="160.0", accept="2.9"),
           text="Let me try with fewer concurrent requests.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(m.name, m.value) for m in a.metrics if m.baseline] == [("throughput", 140.0), ("accept_length", 1.0)]
    view = postmortem_view(a)
    assert view["impact"]["baseline"]["value"] == 140.0  # before: 1.0
