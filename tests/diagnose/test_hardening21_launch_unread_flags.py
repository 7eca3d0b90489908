"""A server command whose flags sit in a variable the text does not give one value (session 12).

A public GLM-5.2 launcher for MI355 (GitHub code index) sets SPEC_ARGS="" and, in the `--spec`
arm of a `case`, SPEC_ARGS="--speculative-algorithm EAGLE --speculative-num-steps 3 ...", then runs
`sglang serve ... ${PROFILE_ARGS} ${SPEC_ARGS} ...`. Which value runs is decided when the script
runs, so the audit rightly leaves `${SPEC_ARGS}` as written, but it then said nothing at all: read as
"no speculation, nothing wrong". It now says the speculative flags were not read (SD004 info).
"""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


GLM_LAUNCHER = '''#!/usr/bin/env bash
export PYTHONPATH=/sgl-workspace/squidward/python:${PYTHONPATH}
MODEL=${HF_HOME:-/root/hf_home}/hub/models--amd--GLM-5.2-MXFP4/snapshots/386bd0e4ec821f7b07975701cec3c3b953a5576a

export SAFETENSORS_FAST_GPU=1
export SGLANG_ROCM_FUSED_DECODE_MLA=0

PROFILE_ARGS=""
SPEC_ARGS=""
for arg in "$@"; do
  case "$arg" in
    --profile)
      PROFILE_ARGS="--disable-cuda-graph"
      ;;
    --speculative|--spec)
      export SGLANG_ENABLE_SPEC_V2=1
      SPEC_ARGS="--speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 --attention-backend triton"
      ;;
  esac
done

set -x
exec sglang serve \\
  --model-path "${MODEL}" \\
  ${PROFILE_ARGS} \\
  ${SPEC_ARGS} \\
  --tp 4 \\
  --host localhost \\
  --port 8552 \\
  --model-loader-extra-config '{"enable_multithread_load": true, "num_threads": 8}' \\
  --kv-cache-dtype fp8_e4m3 \\
  --chunked-prefill-size 131072
'''


def test_flags_in_an_unread_variable_are_said_to_be_unread():
    launch, findings = _findings(GLM_LAUNCHER)
    assert launch["algorithm"] is None
    assert [f.code for f in findings] == ["SD004"]
    assert "${SPEC_ARGS}" in findings[0].evidence[0] and "were not read" in findings[0].evidence[0]
    assert findings[0].severity == "info"


def test_a_flag_value_or_the_vllm_model_in_a_variable_is_no_such_note():
    # `vllm serve $MODEL --port $PORT`: plain serving, every expansion has its place
    _, findings = _findings("vllm serve $MODEL --port $PORT --tensor-parallel-size ${TP:-1}\n")
    assert findings == []


def test_a_speculating_command_with_an_unread_variable_is_still_audited():
    _, findings = _findings("python -m sglang.launch_server --model-path m ${EXTRA_ARGS} "
                            "--speculative-algorithm EAGLE3 --speculative-draft-model-path d "
                            "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2\n")
    assert "SD101" in [f.code for f in findings]
