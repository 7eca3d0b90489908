"""vLLM MTP: a K above the target's MTP module count must be a multiple of it, or vLLM refuses to
start ("num_speculative_tokens:5 must be divisible by n_predict=3").

Rule: vllm-project/vllm vllm/config/speculative.py `SpeculativeConfig.__post_init__`
(`num_speculative_tokens > n_predict and num_speculative_tokens % n_predict != 0` raises
ValueError); the case below is vLLM's own test `test_mtp_stages_are_independent_of_dspark_width`
(https://github.com/vllm-project/vllm/pull/54631: a DeepSeek V4 checkpoint with
num_nextn_predict_layers=3, method mtp: 6 is accepted, 5 is refused).
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.checks.launch_flags import check_num_steps
from spec_debug.diagnose.launch import effective_spec, parse_launch_command

# the shape of vLLM's MTP launches, e.g. `vllm serve Qwen/Qwen3.5-4B --speculative-config
# '{"method": "mtp", "num_speculative_tokens": 1}' --reasoning-parser qwen3` (Qwen3.5 model card)
MTP_SERVE = "vllm serve {model} --speculative-config '{{\"method\": \"mtp\", \"num_speculative_tokens\": {k}}}'"
SOURCE = "the target's MTP modules (num_nextn_predict_layers / mtp_num_hidden_layers)"


def _findings(command: str, layers: int):
    cfg = parse_launch_command(command)
    return check_num_steps(cfg, effective_spec(cfg), layers, trained_source=SOURCE)


def test_k_not_a_multiple_of_three_mtp_modules_is_a_launch_vllm_refuses():
    findings = _findings(MTP_SERVE.format(model="deepseek-ai/DeepSeek-V4-Flash", k=5), 3)
    # before: nothing (vLLM exits at startup with the ValueError)
    assert [f.code for f in findings] == ["SD102"]
    assert "must be divisible by n_predict=3" in findings[0].evidence[1]
    assert '"num_speculative_tokens": 3' in findings[0].remediation
    assert '"num_speculative_tokens": 6' in findings[0].remediation


@pytest.mark.parametrize("k, layers", [(6, 3), (2, 3), (3, 3), (3, 1), (2, 1)])
def test_multiples_and_ks_up_to_the_module_count_start(k, layers):
    assert _findings(MTP_SERVE.format(model="deepseek-ai/DeepSeek-V4-Flash", k=k), layers) == []


def test_dotted_k_is_named_the_way_it_was_written():
    command = "vllm serve deepseek-ai/DeepSeek-V4-Flash --speculative-config.method mtp " \
              "--speculative-config.num_speculative_tokens 7"
    findings = _findings(command, 3)
    assert [f.code for f in findings] == ["SD102"]
    assert "--speculative-config.num_speculative_tokens 6" in findings[0].remediation
