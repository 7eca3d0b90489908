"""analyze: a benchmark the agent says measures the baseline, on a port beside EAGLE-3's, is the baseline.

The agent relaunched EAGLE-3 on port 30000, measured 61 tok/s, said "Let me verify that the
baseline is lower without the draft" and ran the same benchmark against port 30001, a server
the session never launched: 40.3 tok/s, accept length 1.0. The postmortem said "Throughput went
from 61 to 40.3 tok/s": the baseline was the impact's "after". Without the agent's words, or on
the EAGLE-3 server's own port, the reading stays one of the drafter's.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer

EAGLE3 = ("nohup python -m sglang.launch_server --model-path /models/Llama-3.1-70B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/l31-eagle3 --port 30000 --tp 4 --mem-fraction-static 0.75 "
          "> /root/sglang.log 2>&1 &")
BENCH = "python -m sglang.bench_serving --backend sglang --port {port} --num-prompts 32"
RESULT = ("============ Serving Benchmark Result ============\nBackend:                                 sglang\n"
          "Successful requests:                     64\nOutput token throughput (tok/s):         {tput}\n"
          "Accept length:                           {accept}\n==================================================\n")


def _analysis(tmp_path, words: str, port: str = "30001"):
    w = _Writer("59590000-0000-4000-8000-0000000000c3", None, datetime(2026, 4, 2, 9, 0, tzinfo=timezone.utc))
    w.prompt("The EAGLE-3 server on gpu07 OOMs at startup since we moved to the 70B target. Fix it.")
    w.bash(f"ssh ubuntu@gpu07 '{EAGLE3}'", "")
    w.bash("ssh ubuntu@gpu07 'curl -s localhost:30000/health'", "OK")
    w.bash(f"ssh ubuntu@gpu07 '{BENCH.format(port='30000')}'", RESULT.format(tput="61.0", accept="2.2"),
           text="This works around the OOM.")
    w.bash(f"ssh ubuntu@gpu07 '{BENCH.format(port=port)}'", RESULT.format(tput="40.3", accept="1.0"), text=words)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def test_the_baseline_beside_eagle3_is_no_after(tmp_path):
    a = _analysis(tmp_path, "61 tok/s with speculation. Let me verify that the baseline is lower without the draft.")
    assert [(m.value, m.baseline) for m in a.metrics if m.name == "throughput" and m.source == "output"] == [(61.0, False), (40.3, True)]
    ctx = postmortem_view(a)
    tput = next(r for r in ctx["impact"]["rows"] if r["name"] == "throughput")
    assert (tput["before"], tput["after"]) == (61.0, 61.0)
    assert ctx["impact"]["baseline"]["value"] == 40.3
    assert not any("40.3 tok/s [msg" in line and "went from" in line for line in ctx["summary"])
    accept = next(r for r in ctx["impact"]["rows"] if r["name"] == "accept_length")
    assert accept["after"] == 2.2


def test_without_the_agents_words_or_on_eagle3s_port_it_stays_a_reading(tmp_path):
    a = _analysis(tmp_path, "Let me run the benchmark once more.")
    assert [(m.value, m.baseline) for m in a.metrics if m.name == "throughput" and m.source == "output"] == [(61.0, False), (40.3, False)]
    a = _analysis(tmp_path, "Let me verify that the baseline is lower without the draft.", port="30000")
    assert [(m.value, m.baseline) for m in a.metrics if m.name == "throughput" and m.source == "output"] == [(61.0, False), (40.3, False)]
