"""A pasted script's variables assigned in the branches of an `if` (session 11 review).

Reading a script's own assignments (MODEL=... then --model "$MODEL") took the last value written
in the text, so of `if ...; then X=""; else X="--flag"; fi` the else branch always won, whichever
branch the script runs; and a value spread over lines was skipped, leaving the other branch's
empty value in its place.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import split_command

# A public SGLang launch script for DeepSeek-V4-Flash on Ascend NPUs (GitHub code index), its tail
# as written: ENABLE_OVERLAP_SCHEDULE defaults to 1 (OVERLAP_ARGS=""), ENABLE_MTP to 1 (MTP_ARGS
# holds the speculative flags, written over four lines). The audit put --disable-overlap-schedule
# into the command and expanded ${MTP_ARGS} to nothing.
DSV4_NPU_SCRIPT = '''export SGLANG_ENABLE_SPEC_V2=1
export SGLANG_ENABLE_OVERLAP_PLAN_STREAM=1

# path
MODEL_PATH=${MODEL_PATH:-/home/weights/deepseekv4-flash-w8a8-mtp}
MEM_FRACTION_STATIC=${MEM_FRACTION_STATIC:-0.7}
CHUNKED_PREFILL_SIZE=${CHUNKED_PREFILL_SIZE:-131072}
CUDA_GRAPH_BS=${CUDA_GRAPH_BS:-"1 2 4 8"}
MAX_RUNNING_REQUESTS=${MAX_RUNNING_REQUESTS:-64}
ENABLE_OVERLAP_SCHEDULE=${ENABLE_OVERLAP_SCHEDULE:-1}
SPECULATIVE_ALGORITHM=${SPECULATIVE_ALGORITHM:-EAGLE}
SPECULATIVE_NUM_STEPS=${SPECULATIVE_NUM_STEPS:-2}
SPECULATIVE_NUM_DRAFT_TOKENS=${SPECULATIVE_NUM_DRAFT_TOKENS:-3}
EXTRA_ARGS=${EXTRA_ARGS:-"--ep-size 16 --disable-radix-cache"}

if [ "${ENABLE_OVERLAP_SCHEDULE:-0}" = "1" ]; then
    OVERLAP_ARGS=""
else
    OVERLAP_ARGS="--disable-overlap-schedule"
fi

if [ "${DISABLE_CUDA_GRAPH:-0}" = "1" ]; then
    CUDA_GRAPH_ARGS="--disable-cuda-graph"
else
    CUDA_GRAPH_ARGS="--cuda-graph-bs ${CUDA_GRAPH_BS}"
fi

if [ "${ENABLE_MTP:-1}" = "1" ]; then
    MTP_ARGS="--speculative-algorithm ${SPECULATIVE_ALGORITHM} \\
        --speculative-num-steps ${SPECULATIVE_NUM_STEPS} \\
        --speculative-eagle-topk ${SPECULATIVE_EAGLE_TOPK:-1} \\
        --speculative-num-draft-tokens ${SPECULATIVE_NUM_DRAFT_TOKENS}"
else
    MTP_ARGS=""
fi

python3 -m sglang.launch_server --model-path ${MODEL_PATH} \\
    --page-size 128 \\
    --tp-size 16 \\
    --trust-remote-code \\
    --device npu \\
    --prefill-max-requests 32 \\
    --attention-backend dsv4 \\
    --watchdog-timeout 9000 \\
    --host 0.0.0.0 --port 30000 \\
    --mem-fraction-static ${MEM_FRACTION_STATIC} \\
    --chunked-prefill-size ${CHUNKED_PREFILL_SIZE} \\
    --max-running-requests ${MAX_RUNNING_REQUESTS} \\
    ${OVERLAP_ARGS} \\
    --dp-size 16 --enable-dp-attention \\
    --moe-a2a-backend deepep --deepep-mode auto \\
    --quantization modelslim --enable-dp-lm-head \\
    --kv-cache-dtype auto \\
    --skip-server-warmup \\
    ${CUDA_GRAPH_ARGS} ${MTP_ARGS} ${EXTRA_ARGS:-}
'''


def test_branch_assignments_are_not_read_as_one_value():
    argv = split_command(DSV4_NPU_SCRIPT)
    assert "--disable-overlap-schedule" not in argv
    assert "${OVERLAP_ARGS}" in argv


def test_a_value_written_over_lines_is_not_replaced_by_the_other_branch():
    argv = split_command(DSV4_NPU_SCRIPT)
    assert "${MTP_ARGS}" in argv


def test_one_plain_assignment_is_still_read():
    argv = split_command('MODEL="meta-llama/Llama-3.1-8B-Instruct"\nvllm serve "$MODEL" --port 8000\n')
    assert "meta-llama/Llama-3.1-8B-Instruct" in argv


# tutu329/server-install projects/院h20服务器_openeuler/sh/ds-v3-671b-8.sh keeps its speculative
# flags as commented-out lines ending in `\` (`# --speculative-algo NEXTN \`). bash has no line
# continuation inside a comment, so such a line above the command (the variant switched off, as
# these scripts keep them) must not swallow the command below it.
COMMENTED_VARIANT_ABOVE = """export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
# python -m sglang.launch_server --model-path=/home/tutu/models/DeepSeek-V3-0324 --tp=8 \\
# --speculative-algo NEXTN \\
python -m sglang.launch_server --served-model-name=ds-v3 --model-path=/home/tutu/models/DeepSeek-V3-0324 \\
--enable-p2p-check --trust-remote-code --host=0.0.0.0 --port=28001 \\
--tp=8 --speculative-algorithm NEXTN --speculative-num-steps 2 --speculative-eagle-topk 1 \\
--speculative-num-draft-tokens 3
# --disable-radix \\
# --enable-torch-compile --torch-compile-max-bs 1 \\
"""


def test_a_commented_line_ending_in_backslash_does_not_continue():
    argv = split_command(COMMENTED_VARIANT_ABOVE)
    assert "--served-model-name=ds-v3" in argv
    assert argv[argv.index("--speculative-num-steps") + 1] == "2"
    assert not any(tok.startswith("#") for tok in argv)
