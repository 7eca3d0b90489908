"""Correct public launch commands that today's launch-audit rules misread (session 11 review).

Each input is quoted from a public file; each test fails on the rule as first written.
"""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


# snowflakedb/ArcticInference docs/spec-decode.rst ("Usage with ArcticInference"):
# https://github.com/snowflakedb/ArcticInference/blob/main/docs/spec-decode.rst
# "method": "arctic" is registered by the arctic-inference vLLM plugin, its documented way to serve
# Snowflake's Arctic LSTM speculators; the server starts.
ARCTIC_DOCS = """python -m vllm.entrypoints.openai.api_server \\
        --model meta-llama/Llama-3.3-70B-Instruct \\
        --quantization "fp8" \\
        --tensor-parallel-size 2 \\
        --speculative-config '{
            "method": "arctic",
            "model":"Snowflake/Arctic-LSTM-Speculator-Llama-3.3-70B-Instruct",
            "num_speculative_tokens": 3,
            "enable_suffix_decoding": true
        }'
"""


def test_arctic_inference_method_is_no_startup_refusal():
    launch, findings = _findings(ARCTIC_DOCS)
    assert launch["engine"] == "vllm"
    assert launch["speculative_config"]["method"] == "arctic"
    assert [f for f in findings if f.code == "SD102"] == []


def test_a_misspelt_method_is_still_refused():
    # the rule still holds for a name no engine or known plugin has
    _, findings = _findings(ARCTIC_DOCS.replace('"arctic"', '"artic"'))
    assert any(f.code == "SD102" for f in findings)
