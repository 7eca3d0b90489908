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
