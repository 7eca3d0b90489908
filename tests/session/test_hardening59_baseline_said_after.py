"""analyze: a benchmark the agent then calls the baseline ("1.51x (61.0 vs 40.3 tok/s)") is no "after".

The agent measured EAGLE-3 at 61 tok/s, then a server on another port at 40.3 tok/s, and wrote
"The speedup is 1.51x (61.0 vs 40.3 tok/s)": the 40.3 run was the baseline. The postmortem said
"Throughput went from 61 to 40.3 tok/s" and its accept length "went" to the plain run's 1.0.
Only what was printed since the agent last wrote is named so.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer

EAGLE3 = ("nohup python -m sglang.launch_server --model-path /models/Llama-3.1-70B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/l31-eagle3 --port 30000 --tp 4 > /root/sglang.log 2>&1 &")
BENCH = "python -m sglang.bench_serving --backend sglang --port {port} --num-prompts 32"
RESULT = ("============ Serving Benchmark Result ============\nBackend:                                 sglang\n"
          "Output token throughput (tok/s):         {tput}\nAccept length:                           {accept}\n"
          "==================================================\n")


def _analysis(tmp_path, between: str | None, said: str):
    w = _Writer("59590000-0000-4000-8000-0000000000e9", None, datetime(2026, 4, 2, 9, 0, tzinfo=timezone.utc))
    w.prompt("The EAGLE-3 server on gpu07 OOMs at startup. Fix it and tell me the speculative speedup.")
    w.bash(f"ssh ubuntu@gpu07 '{EAGLE3}'", "")
    w.bash(f"ssh ubuntu@gpu07 '{BENCH.format(port='30000')}'", RESULT.format(tput="61.0", accept="2.2"))
    w.bash(f"ssh ubuntu@gpu07 '{BENCH.format(port='30001')}'", RESULT.format(tput="40.3", accept="1.0"),
           text="Now the other port.")
    if between:
        w.say(between)
    w.say(said)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return postmortem_view(analyze_path(path)), analyze_path(path)


def test_the_run_said_to_be_the_baseline_is_no_after(tmp_path):
    view, a = _analysis(tmp_path, None, "The speedup is 1.51x (61.0 vs 40.3 tok/s).")
    assert [(m.value, m.baseline) for m in a.metrics if m.name == "throughput" and m.source == "output"] == [
        (61.0, False), (40.3, True)]
    rows = {r["name"]: r for r in view["impact"]["rows"]}
    assert (rows["throughput"]["before"], rows["throughput"]["after"]) == (61.0, 61.0)
    assert rows["accept_length"]["after"] == 2.2
    assert view["impact"]["baseline"]["value"] == 40.3


def test_only_what_the_agent_just_read(tmp_path):
    _, a = _analysis(tmp_path, "Both runs are done.", "The speedup is 1.51x (61.0 vs 40.3 tok/s).")
    assert [(m.value, m.baseline) for m in a.metrics if m.name == "throughput" and m.source == "output"] == [
        (61.0, False), (40.3, False)]
