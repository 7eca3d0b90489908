"""A config.json's `architectures` in any shape (review of d65e44c9).

d65e44c9 read an `architectures` written as one string as that name in names_a_kind, but
vllm_mtp_target_refused still named the target by its first letter (`the target (L) has none`),
and a number or an object there stopped the launch step with a TypeError ('int' object is not
iterable) in names_no_mtp and in the refusal check. launch.config_architectures gives the names
once, for both.
"""

from __future__ import annotations

import json

from spec_debug.diagnose.checks.launch_flags import NO_MTP_MODULES
from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps.launch_step import names_no_mtp, vllm_mtp_target_refused

MTP = parse_launch_command("vllm serve Qwen/Qwen3-4B --speculative-config "
                           + json.dumps(json.dumps({"method": "mtp", "num_speculative_tokens": 1})))


def test_a_target_named_by_one_string_is_named_whole():
    line = vllm_mtp_target_refused(MTP, {"architectures": "Qwen3ForCausalLM"}, NO_MTP_MODULES)
    assert line is not None and "the target (Qwen3ForCausalLM) has none" in line


def test_an_architectures_that_is_no_name_is_passed_over():
    for odd in (5, True, {"Qwen3ForCausalLM": 1}):
        config = {"architectures": odd, "num_hidden_layers": 36}
        assert names_no_mtp(config)
        line = vllm_mtp_target_refused(MTP, config, NO_MTP_MODULES)
        assert line is not None and "the target (?) has none" in line
