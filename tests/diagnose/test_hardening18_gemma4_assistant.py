"""A Gemma 4 assistant draft (architectures Gemma4AssistantForCausalLM, model_type gemma4_assistant:
the names sgl-project/sglang arg_groups/speculative_hook.py and vllm-project/vllm
vllm/config/speculative.py key on) is served by SGLang as NEXTN/EAGLE, promoted to FROZEN_KV_MTP;
with --speculative-algorithm EAGLE3 SGLang refuses to start ("Gemma4AssistantForCausalLM draft
requires --speculative-algorithm NEXTN or EAGLE; EAGLE3 is not supported for this draft
architecture."). The audit said nothing: the draft is no EAGLE checkpoint, so SD103 never looked."""

from __future__ import annotations

from spec_debug.diagnose.checks.launch_flags import check_algorithm
from spec_debug.diagnose.launch import parse_launch_command

ASSISTANT = {"architectures": ["Gemma4AssistantForCausalLM"], "model_type": "gemma4_assistant",
             "text_config": {"hidden_size": 5376, "num_hidden_layers": 4}}
COMMAND = ("python3 -m sglang.launch_server --model-path google/gemma-4-31B-it --speculative-algorithm {algo} "
           "--speculative-draft-model-path /models/gemma-4-31B-it-assistant --speculative-num-steps 3 "
           "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4 --tp 2")


def test_eagle3_with_a_gemma4_assistant_draft_is_refused():
    found = check_algorithm(parse_launch_command(COMMAND.format(algo="EAGLE3")), ASSISTANT)
    assert [f.code for f in found] == ["SD103"]
    assert "NEXTN" in found[0].remediation and "refuses to start" in " ".join(found[0].evidence)


def test_nextn_and_eagle_with_it_are_what_sglang_runs():
    for algo in ("NEXTN", "EAGLE"):
        assert check_algorithm(parse_launch_command(COMMAND.format(algo=algo)), ASSISTANT) == []
