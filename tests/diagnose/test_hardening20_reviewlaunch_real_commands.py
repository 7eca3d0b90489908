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


# A public DeepSeek-V4.1-Flash deployment guide on GitHub (section 8.6, "vLLM, 4x MI355X benchmark
# server", after the vLLM recipe https://recipes.vllm.ai/deepseek-ai/DeepSeek-V4.1-Flash, as
# InferenceX PR #3058 runs it): the speculative config kept in a single-quoted variable and passed
# as "$SPEC_CONFIG", a comment between with an apostrophe (recipe's). bash hands vLLM the JSON
# with its double quotes; the audit removed them ("not valid JSON", hint: quote it for the shell),
# and the comment's apostrophe opened a quote that swallowed the rest of the script.
DSV41_RECIPE = """export HIP_VISIBLE_DEVICES="$ROCR_VISIBLE_DEVICES"
export VLLM_ROCM_USE_AITER=1 VLLM_ROCM_USE_AITER_MOE=1
export AITER_TRITON_LOG_LEVEL=ERROR VLLM_USE_BREAKABLE_CUDAGRAPH=1
export OMP_NUM_THREADS=1 VLLM_ENGINE_READY_TIMEOUT_S=3600
export VLLM_USE_RUST_FRONTEND=1 PYTHONUNBUFFERED=1 GPU_COUNT=4
MODEL=deepseek-ai/DeepSeek-V4.1-Flash
SPEC_CONFIG='{"method":"dspark","num_speculative_tokens":5,"draft_sample_method":"probabilistic","rejection_sample_method":"block","enable_adaptive_verification":false}'
# ^ this is the recipe's EVAL_ONLY=true arm (real block rejection; also what vLLM
#   recommends for ordinary serving). Its throughput-benchmark arm instead uses
#   "rejection_sample_method":"synthetic","synthetic_acceptance_length":3.51 —
#   a benchmark constant, not a measurement. [vLLM recipe, verified 2026-09-19]
exec vllm serve "$MODEL" --served-model-name "$MODEL" \\
  --host 0.0.0.0 --port "$PORT" --tensor-parallel-size 4 \\
  --language-model-only \\
  --tokenizer-mode deepseek_v41 \\
  --tool-call-parser deepseek_v41 --enable-auto-tool-choice \\
  --reasoning-parser deepseek_v41 \\
  --moe-backend aiter \\
  --gpu-memory-utilization 0.9 \\
  --speculative-config "$SPEC_CONFIG" \\
  --max-model-len 1048576 \\
  --max-num-seqs 128 \\
  --max-cudagraph-capture-size 1024 \\
  --max-num-batched-tokens 16384 \\
  --disable-uvicorn-access-log
"""


def test_spec_config_variable_keeps_its_json_quotes():
    launch, findings = _findings(DSV41_RECIPE)
    assert launch["engine"] == "vllm"
    assert launch["speculative_config"] == {
        "method": "dspark", "num_speculative_tokens": 5, "draft_sample_method": "probabilistic",
        "rejection_sample_method": "block", "enable_adaptive_verification": False}
    assert launch["target_model"] == "deepseek-ai/DeepSeek-V4.1-Flash"
    # (the vLLM release is unknown: dspark, added in 0.25.0, is only said to be refused by the
    # releases before it, hardening72)
    assert not [f for f in findings if f.code in ("SD004", "SD102") and not f.title.endswith("on its older releases")]


def test_unquoted_variable_is_split_into_words_like_bash():
    # `--speculative-config $SPEC` unquoted: bash splits the JSON at its blanks, so vLLM gets
    # `{"method":` as the value; the audit must not read it as the whole config
    script = "SPEC='{\"method\": \"ngram\", \"num_speculative_tokens\": 4}'\nvllm serve m --speculative-config $SPEC\n"
    try:
        launch, _ = _findings(script)
    except Exception:  # noqa: BLE001 - either a refusal or an unreadable config is right here
        return
    assert (launch.get("speculative_config") or {}).get("num_speculative_tokens") != 4
