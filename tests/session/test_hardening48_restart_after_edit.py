"""analyze: a service restarted behind an edit no longer serves the plain server.

The on-call benchmarks the model without speculation (the baseline), then switches the service
to the EAGLE-3 draft in one line, ``sudo sed -i ... /etc/sglang/sglang.env && sudo systemctl
restart sglang``, and benchmarks again with a client that prints no acceptance. The line's kind
is "edit", which leaves a server as it was, so the EAGLE-3 run was taken for the plain server's:
a second baseline, and no SD501 for the slower drafter.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.host_changes import starts_service
from tests.session.incident_story import _Writer

PLAIN = "nohup python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct > /tmp/s.log 2>&1 &"
BENCH = "python3 -m sglang.bench_serving --backend sglang --num-prompts 64"
SWITCH = "sudo sed -i s#=plain#=eagle3# /etc/sglang/sglang.env && sudo systemctl restart sglang"


def test_the_benchmark_after_the_restart_is_the_drafters(tmp_path):
    w = _Writer("48480000-0000-4000-8000-0000000000ca", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 made serving slower on gpu01.")
    for command, output in [(PLAIN, ""), (BENCH, "Output token throughput (tok/s):   141.40\n"), (SWITCH, ""),
                            (BENCH, "Output token throughput (tok/s):   94.70\n")]:
        w.bash(f"ssh gpu01 '{command}'", output)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(m.value, m.baseline) for m in a.metrics if m.name == "throughput"] == [(141.4, True), (94.7, False)]
    assert [f.evidence for f in a.findings if f.code == "SD501"] == [
        ["[msg 8] 94.7 tok/s measured vs 141.4 tok/s baseline [msg 4]"]]


@pytest.mark.parametrize(("command", "starts"), [
    (SWITCH, True), ("docker compose up -d sglang", True), ("sudo service sglang restart", True),
    ("kubectl rollout restart deploy/sglang", True), ("systemctl status sglang", False),
    ("conda create -n spec python=3.11", False), ("sed -i s/a/b/ config.yaml", False),
])
def test_what_starts_a_service(command, starts):
    assert starts_service(command) is starts
