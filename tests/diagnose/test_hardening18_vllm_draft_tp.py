"""vLLM runs the draft on 1 GPU or on the target's tensor-parallel group, nothing between
(vllm/config/speculative.py `_verify_and_get_draft_tp`: "cannot be other value than 1 or target
model tensor_parallel_size"); vllm-project/vllm PR #31886 (open) asks for any size after users
tried `"draft_tensor_parallel_size": 2` next to `-tp 8`. And SpeculativeConfig refuses a
`tensor_parallel_size` key, the spelling users reach for ("Please pass 'draft_tensor_parallel_size'
instead"). The audit read both commands as healthy; vLLM does not start."""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

# PR #31886's setting (Qwen3 at tp 8, draft tp 2), as a vllm serve command
DRAFT_TP_2 = ("vllm serve Qwen/Qwen3-32B -tp 8 --speculative-config '{\"method\": \"eagle3\", "
              "\"model\": \"Tengyunw/qwen3_32b_eagle3\", \"num_speculative_tokens\": 3, \"draft_tensor_parallel_size\": 2}'")
# vLLM's own EAGLE-3 usage (vllm-project/vllm#31345): tp 4, draft tp 1
DRAFT_TP_1 = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 4 --speculative-config "
              "'{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", "
              "\"draft_tensor_parallel_size\": 1, \"num_speculative_tokens\": 3}'")


def _codes(command: str) -> list[str]:
    launch = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch_flags", host="gpu01", args={}, facts=launch,
                       host_facts={**launch, "engine": {"name": "vllm", "version": "0.11.0"}})
    return [f.code for f in launch_step.check(ctx)]


def test_a_draft_tp_between_one_and_the_targets_is_refused():
    problems = effective_spec(parse_launch_command(DRAFT_TP_2)).problems
    assert len(problems) == 1 and "draft_tensor_parallel_size\": 2 with tensor parallel size 8" in problems[0]
    assert "SD102" in _codes(DRAFT_TP_2)


def test_draft_tp_one_or_the_targets_is_fine():
    assert effective_spec(parse_launch_command(DRAFT_TP_1)).problems == []
    same = DRAFT_TP_1.replace('"draft_tensor_parallel_size": 1', '"draft_tensor_parallel_size": 4')
    assert effective_spec(parse_launch_command(same)).problems == []
    assert "SD102" not in _codes(DRAFT_TP_1)


def test_a_tensor_parallel_size_key_in_the_speculative_config_is_refused():
    wrong = DRAFT_TP_1.replace('"draft_tensor_parallel_size": 1', '"tensor_parallel_size": 1')
    problems = effective_spec(parse_launch_command(wrong)).problems
    assert len(problems) == 1 and "draft_tensor_parallel_size" in problems[0]
