"""slime's `train.py` with `--sglang-*` rollout flags is the SGLang server it starts (session 14).

slime (THUDM/slime) adds every SGLang server flag to its trainer prefixed `--sglang-`
(slime/backends/sglang_utils/arguments.py, add_sglang_arguments), serves `--hf-checkpoint`, and
sets the engine's tp to `--rollout-num-gpus-per-engine` (validate_args). Its public
scripts/run-mimo-7B-rl-eagle.sh speculates in the rollouts (THUDM/slime#1017 asks about its
steps 3 / topk 1 / draft tokens 4). The audit said 'not an SGLang or vLLM server command'.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

# trimmed from THUDM/slime scripts/run-mimo-7B-rl-eagle.sh (the arrays it passes, as written)
SLIME = """#!/bin/bash
set -ex
export PYTHONUNBUFFERED=1

CKPT_ARGS=(
   --hf-checkpoint /root/MiMo-7B-RL
   #--hf-checkpoint /root/Qwen3-4B-FP8
   --ref-load /root/MiMo-7B-RL_torch_dist
   --load /root/MiMo-7B-RL-mtp_slime/
   --save /root/MiMo-7B-RL-mtp_slime/
   --save-interval 2000
)

SGLANG_ARGS=(
   --rollout-num-gpus-per-engine 1
   --sglang-mem-fraction-static 0.7

   # for speculative decoding
   --sglang-speculative-algorithm EAGLE
   --sglang-speculative-num-steps 3
   --sglang-speculative-eagle-topk 1
   --sglang-speculative-num-draft-tokens 4
)

SPEC_ARGS=(
   --enable-mtp-training
   --mtp-loss-scaling-factor 0.2
)

export MASTER_ADDR=${MASTER_ADDR:-"127.0.0.1"}
ray start --head --node-ip-address ${MASTER_ADDR} --num-gpus 8 --disable-usage-stats

ray job submit --address="http://127.0.0.1:8265" \\
   -- python3 train.py \\
   --actor-num-nodes 1 \\
   --actor-num-gpus-per-node 8 \\
   --colocate \\
   ${CKPT_ARGS[@]} \\
   ${SGLANG_ARGS[@]} \\
   ${SPEC_ARGS[@]}
"""


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_the_public_script_is_its_rollout_server():
    cfg = parse_launch_command(SLIME)
    assert cfg.engine == "sglang" and cfg.target_model == "/root/MiMo-7B-RL" and cfg.tp == 1
    assert (cfg.algorithm, cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == ("EAGLE", 3, 1, 4)
    assert cfg.flags["mem-fraction-static"] == "0.7"
    assert "router-ip" not in cfg.flags and "actor-num-nodes" not in cfg.flags


def test_its_consistent_budget_is_no_finding_and_a_one_step_cap_is():
    # steps 3, topk 1, 4 draft tokens is what SGLang runs for topk 1 (#1017's worry is no fault)
    launch, findings = _findings(SLIME)
    assert launch["found"] and not [f for f in findings if f.code in ("SD101", "SD102")]
    capped = SLIME.replace("num-steps 3", "num-steps 1").replace("draft-tokens 4", "draft-tokens 2")
    launch, findings = _findings(capped)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_the_router_flags_alone_are_no_server():
    cfg_text = "python3 train.py --hf-checkpoint /m --sglang-router-ip 10.0.0.1 --sglang-router-port 3000"
    launch, _ = _findings(cfg_text)
    assert not launch["found"]
