"""vLLM's dynamic speculative decoding (`num_speculative_tokens_per_batch_size`, vLLM 0.33.0
vllm/config/speculative.py) picks K by the running batch size, each K capped at
num_speculative_tokens (vllm/v1/spec_decode/dynamic/utils.py `build_dynamic_sd_schedule_lookup`):
the audit must judge the K that runs, not the static maximum."""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SERVE = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
         "'{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3, "
         "\"num_speculative_tokens_per_batch_size\": SCHEDULE}'")


def _audit(schedule: str, extra: str = "") -> list:
    facts = launch_step.parse({"source": "var", "cmdline": SERVE.replace("SCHEDULE", schedule) + extra, "models": {}})
    ctx = ProbeContext(step_id="launch_flags", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


def test_a_schedule_of_one_token_at_every_batch_size_is_one_step():
    eff = effective_spec(parse_launch_command(SERVE.replace("SCHEDULE", "[[1, 256, 1]]")))
    assert (eff.num_steps, eff.num_draft_tokens, eff.adaptive) == (1, 2, False)
    found = _audit("[[1, 256, 1]]")
    assert [f.code for f in found] == ["SD101"]
    assert "1-256: 1" in found[0].evidence[0]


def test_a_schedule_that_varies_is_k_at_batch_size_one_and_moves():
    # K 5 is capped at num_speculative_tokens 3; batch sizes 17-32 keep the previous K
    eff = effective_spec(parse_launch_command(SERVE.replace("SCHEDULE", "[[1, 16, 5], [33, 128, 1]]")))
    assert (eff.num_steps, eff.adaptive) == (3, True)
    assert "1-16: 3, 33-128: 1" in eff.overrides[0]
    assert [f.code for f in _audit("[[1, 16, 5], [33, 128, 1]]")] == []  # a dynamic line is no SD102


def test_a_schedule_vllm_refuses_is_a_problem():
    found = _audit("[[2, 16, 3]]")
    assert [f.code for f in found] == ["SD102"]
    assert "the first batch-size range must start at 1; vLLM refuses to start" in found[0].evidence[0]


def test_data_parallel_switches_the_schedule_off():
    eff = effective_spec(parse_launch_command(SERVE.replace("SCHEDULE", "[[1, 256, 1]]") + " --data-parallel-size 2"))
    assert eff.num_steps == 3 and "switched off with --data-parallel-size 2" in eff.overrides[0]
