"""A server command built in a bash array and run as `"${command[@]}"` (session 12).

A public EAGLE-3 serving script (GitHub code index) builds the SGLang command in an array, appends
the speculative flags with `command+=(...)` under `if $USE_EAGLE3`, and runs `"${command[@]}"`.
The audit read the first array's words as the server (its assignment line looked like a command)
and never saw the appended flags: no speculation, no finding, though steps 5 with 4 draft tokens
(topk 8) drafts 2 steps every round that can never be accepted (SD102).
"""

from __future__ import annotations

from spec_debug.diagnose.launch import split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


# The script as published (its trt branch included; ENGINE_TYPE picks one when it runs).
ARRAY_SCRIPT = '''set -ex

USE_EAGLE3=true # false or true
ENGINE_TYPE=trt # trt or sglang

# for sglang
speculative_num_steps=5
speculative_eagle_topk=8
speculative_num_draft_tokens=4

# for trt
max_draft_len=4

base_model=/mnt/modelops/models/Qwen3-30B-A3B/
eagle_model=/mnt/modelops/train/eagle3/output/qwen3-30B-A3b-eagle3_nnodes_8/epoch_9


if [ ${ENGINE_TYPE} == "sglang" ];then
  command=(
    python3 -m sglang.launch_server \\
        --model ${base_model}  \\
        --host 127.0.0.1 \\
        --port 9122 \\
        --mem-fraction 0.85 \\
        --cuda-graph-max-bs 64 \\
        --max-running-requests 64 \\
        --chunked-prefill-size 8192 \\
        --tp-size 8
  )

  if $USE_EAGLE3; then
    command+=( 
        --speculative-algorithm EAGLE3 \\
        --speculative-draft-model-path ${eagle_model} \\
        --speculative-num-steps ${speculative_num_steps} \\
        --speculative-eagle-topk ${speculative_eagle_topk} \\
        --speculative-num-draft-tokens ${speculative_num_draft_tokens} 
    )
  fi
else
  command=(
      python3 /mnt/modelops/opensource/TensorRT-LLM/tensorrt_llm/commands/trtllm-serve.py \\
      --model_path ${base_model} \\
      --port 9122 \\
      --host 127.0.0.1 \\
      --backend pytorch \\
      --max_batch_size 16 \\
      --max_num_tokens 8192 \\
  )

  if $USE_EAGLE3; then
    command+=(--spec_algo eagle3 --draft_model_path ${eagle_model} --max_draft_len ${max_draft_len})
  fi

fi

"${command[@]}"
'''


def test_the_appended_speculative_flags_are_part_of_the_server_command():
    argv = split_command(ARRAY_SCRIPT)
    assert argv[:3] == ["python3", "-m", "sglang.launch_server"]
    assert argv[argv.index("--speculative-num-steps") + 1] == "5"
    assert argv[argv.index("--speculative-num-draft-tokens") + 1] == "4"
    assert argv[argv.index("--tp-size") + 1] == "8"


def test_steps_beyond_the_draft_tokens_are_sd102():
    launch, findings = _findings(ARRAY_SCRIPT)
    assert (launch["num_steps"], launch["topk"], launch["num_draft_tokens"]) == (5, 8, 4)
    assert [f.code for f in findings] == ["SD102"]
    assert "2 of the 5 draft steps" in findings[0].evidence[0]


def test_a_one_line_array_keeps_its_quoted_json_word():
    script = ('cmd=(vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '
              '\'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 1}\')\n'
              'exec "${cmd[@]}" 2>&1 | tee server.log\n')
    argv = split_command(script)
    assert argv[:4] == ["exec", "vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct"]
    assert argv[argv.index("--speculative-config") + 1].startswith('{"method": "eagle3"')
    launch, findings = _findings(script)
    assert launch["num_steps"] == 1 and [f.code for f in findings] == ["SD101"]


def test_an_array_the_text_never_assigns_stays_as_written():
    argv = split_command('python -m sglang.launch_server --model-path m "${EXTRA[@]}"\n')
    assert argv[-1] == "${EXTRA[@]}"


# A public vLLM launch script (GitHub code index, run_model.sh): the array printed with
# "${CMD[*]}" inside an echo string, then run with exec "${CMD[@]}".
ECHO_THEN_EXEC = '''#!/bin/bash
MODEL_TAG="distill-llama-8b"
MODEL_PATH="/nfs/checkpoint-tuning/deepseek/DeepSeek-R1-Distill-Llama-8B"
SPECULATIVE_MODEL_PATH="/nfs/checkpoint-tuning/deepseek/DeepSeek-R1-Distill-Llama-8B"
NUM_SPECULATIVE_TOKENS=5
TENSOR_PARALLEL_SIZE=8
CMD=(vllm serve "${MODEL_PATH}" \\
    --served-model-name "${MODEL_TAG}" \\
    --tensor-parallel-size "${TENSOR_PARALLEL_SIZE}" \\
    --device "cuda")
if [[ "${USE_SPECULATIVE_MODEL}" == true ]]; then
    CMD+=(--speculative-model "${SPECULATIVE_MODEL_PATH}" --num-speculative-tokens "${NUM_SPECULATIVE_TOKENS}")
fi
echo "Running command: ${CMD[*]}"
exec "${CMD[@]}"
'''


def test_an_array_printed_in_a_string_and_run_with_exec():
    argv = split_command(ECHO_THEN_EXEC)
    assert argv[:3] == ["exec", "vllm", "serve"]
    assert argv[argv.index("--num-speculative-tokens") + 1] == "5"
    assert argv[argv.index("--tensor-parallel-size") + 1] == "8"
