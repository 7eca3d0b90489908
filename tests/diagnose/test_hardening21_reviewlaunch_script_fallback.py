"""A launch script whose flags the shell reading cannot give (session 12 review of 58b0829).

A public vLLM serve script for gemma-4-31B-it (GitHub code index) builds `EXTRA=()`, appends
`--speculative-config "{\\"model\\": \\"$SPEC_DRAFT\\", ...}"` when SPEC_DRAFT is set, and runs
`exec vllm serve "$MODEL" ... "${EXTRA[@]}"`. Once arrays were read, the shell reading rightly
stopped at the draft the environment gives ('holds the shell expression ... not in this text'),
but the `ps`-line fallback then re-read the whole script as one line: an argv that starts with
`EXTRA+=($EXTRA_ARGS)`, the array left unexpanded. A script is now never read as a `ps` line.
"""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

GEMMA_SERVE = r'''#!/usr/bin/env bash
set -euo pipefail
MODEL="${MODEL:-$MODELS_DIR/gemma-4-31B-it}"
QUANT="${QUANT-fp8}"

EXTRA=()
[ -n "${QUANT:-}" ] && EXTRA+=(--quantization "$QUANT")
[ -n "${ENFORCE_EAGER:-}" ] && EXTRA+=(--enforce-eager)
[ -n "${SPEC_DRAFT:-}" ] && EXTRA+=(--speculative-config "{\"model\": \"$SPEC_DRAFT\", \"num_speculative_tokens\": ${SPEC_TOKENS:-3}}")
[ -n "${EXTRA_ARGS:-}" ] && EXTRA+=($EXTRA_ARGS)

exec vllm serve "$MODEL" \
  --served-model-name gemma-4-31b \
  --tensor-parallel-size "${TP:-1}" \
  --enable-prefix-caching \
  "${EXTRA[@]}"'''


def test_a_script_whose_draft_the_environment_gives_says_so():
    facts = launch_step.parse({"source": "var", "cmdline": GEMMA_SERVE, "models": {}})
    launch = facts["launch"]
    assert not launch["found"]
    assert "holds the shell expression" in launch["error"] and "$SPEC_DRAFT" in launch["error"]
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    assert [f.code for f in launch_step.check(ctx)] == ["SD004"]


def test_a_ps_line_with_its_json_unquoted_is_still_read():
    # `ps -o args` prints the JSON's quotes and spaces as they are: one line, read as such
    facts = launch_step.parse({"source": "var", "models": {}, "cmdline":
                               'vllm serve m --speculative-config {"method": "eagle3", "model": "d", '
                               '"num_speculative_tokens": 3}'})
    assert facts["launch"]["found"] and facts["launch"]["num_steps"] == 3


def test_an_issue_body_with_its_command_in_a_code_fence():
    # sgl-project/SpecForge-style issue body (tests/session/data_hardening18_text/eagle_298_issue_body.md):
    # the fence's backquotes opened a command substitution that hid the command; it was read only
    # by the `ps`-line fallback, by chance
    body = ("sglang version: 0.5.2rc2\ndevice: A800x1\n\nstarting server:\n```bash\n"
            "python3 -m sglang.launch_server \\\n    --model /models/Qwen3-8B \\\n"
            "    --speculative-algorithm EAGLE3 \\\n    --speculative-draft-model-path engyunw/qwen3_8b_eagle3 \\\n"
            "    --speculative-num-steps 6 \\\n    --speculative-eagle-topk 10 \\\n"
            "    --speculative-num-draft-tokens 32 \\\n    --port 30000 \n```\n\nbenchmarking:\n```bash\n"
            "python bench_sglang.py --num-questions 128 --port 30000 --parallel {NUM_PARALLEL} #evaluate the baseline\n```\n"
            "Is it normal?\n")
    facts = launch_step.parse({"source": "var", "cmdline": body, "models": {}})
    launch = facts["launch"]
    assert launch["argv"][:3] == ["python3", "-m", "sglang.launch_server"]
    assert (launch["num_steps"], launch["topk"], launch["num_draft_tokens"]) == (6, 10, 32)
    # the same without the `{NUM_PARALLEL}` that let the fallback run at all
    facts = launch_step.parse({"source": "var", "cmdline": body.replace("{NUM_PARALLEL}", "4"), "models": {}})
    assert facts["launch"]["found"] and facts["launch"]["algorithm"] == "EAGLE3"
