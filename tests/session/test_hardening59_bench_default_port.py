"""analyze: a benchmark that names no port measures the engine's default port, not the last launch.

EAGLE-3 serves on vLLM's default port (8000, named or not) and the agent starts the model
without speculation on 8001 beside it. `vllm bench serve --port 8001` measured the baseline;
`vllm bench serve` with no --port sends to 8000 (vllm/benchmarks/serve.py's default), the
EAGLE-3 server. It was read as the last launch's, the plain one: the slow EAGLE-3 reading
became a second baseline and SD501 never fired.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

MODEL = "meta-llama/Llama-3.1-8B-Instruct"
RESULT = ("============ Serving Benchmark Result ============\nSuccessful requests:                     200\n"
          "Output token throughput (tok/s):         {t}\n==================================================\n")


def _analysis(tmp_path, eagle3_port: str):
    w = _Writer("59590000-0000-4000-8000-0000000000fa", None, datetime(2026, 4, 3, 9, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 in vLLM on gpu03 is slower than expected.")
    w.bash(f"ssh gpu03 'nohup vllm serve {MODEL}{eagle3_port} --speculative-config "
           "\\'{\"method\": \"eagle3\", \"model\": \"/models/e3\", \"num_speculative_tokens\": 3}\\' > spec.log 2>&1 &'", "")
    w.bash(f"ssh gpu03 'nohup vllm serve {MODEL} --port 8001 > plain.log 2>&1 &'", "")
    w.bash(f"ssh gpu03 'vllm bench serve --model {MODEL} --port 8001 --num-prompts 200'", RESULT.format(t="140.2"))
    w.bash(f"ssh gpu03 'vllm bench serve --model {MODEL} --num-prompts 200'", RESULT.format(t="95.1"))
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


@pytest.mark.parametrize("eagle3_port", [" --port 8000", ""])
def test_the_default_port_is_the_eagle3_server(tmp_path, eagle3_port):
    a = _analysis(tmp_path, eagle3_port)
    assert [(m.value, m.baseline) for m in a.metrics if m.name == "throughput"] == [(140.2, True), (95.1, False)]
    assert [f.evidence for f in a.findings if f.code == "SD501"] == [
        ["[msg 8] 95.1 tok/s measured vs 140.2 tok/s baseline [msg 6]"]]


def test_the_plain_server_on_the_default_port_after_eagle3_on_another(tmp_path):
    # The plain server on SGLang's default port (30000), then EAGLE-3 launched on 30001: a later
    # bench_serving with no --port measures the plain server again (was the EAGLE-3 launch's, the
    # last: "went from 96 to 130.2 tok/s").
    sr = ("============ Serving Benchmark Result ============\nBackend:                                 sglang\n"
          "Output token throughput (tok/s):         {t}\n==================================================\n")
    model = "--model-path meta-llama/Llama-3.1-8B-Instruct"
    w = _Writer("59590000-0000-4000-8000-0000000000fb", None, datetime(2026, 4, 3, 9, 0, tzinfo=timezone.utc))
    w.prompt("Check whether EAGLE-3 helps on gpu09.")
    w.bash(f"ssh gpu09 'nohup python -m sglang.launch_server {model} > plain.log 2>&1 &'", "")
    w.bash("ssh gpu09 'python -m sglang.bench_serving --backend sglang --num-prompts 64'", sr.format(t="131.0"))
    w.bash(f"ssh gpu09 'nohup python -m sglang.launch_server {model} --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path /m/e3 --port 30001 > spec.log 2>&1 &'", "")
    w.bash("ssh gpu09 'python -m sglang.bench_serving --backend sglang --port 30001 --num-prompts 64'", sr.format(t="96.0"))
    w.bash("ssh gpu09 'python -m sglang.bench_serving --backend sglang --num-prompts 64'", sr.format(t="130.2"))
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(m.value, m.baseline) for m in a.metrics if m.name == "throughput"] == [
        (131.0, True), (96.0, False), (130.2, True)]
