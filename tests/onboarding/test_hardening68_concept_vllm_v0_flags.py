"""`spec-debug explain num_speculative_tokens` listed `--num-speculative-tokens` among the ways
the concept is written and said nothing more of it, while the launch audit refuses that flag (and
`--speculative-model`) on vLLM 0.8.3 and later: removed with V0 (diagnose/launch.py
_VLLM_V0_FLAGS, _VLLM_V0_FLAGS_REMOVED). A newcomer holding an old `--num-speculative-tokens 3`
command read it as a current spelling."""

from __future__ import annotations

from spec_debug.diagnose import launch
from tests.conftest import run_cli


def test_the_concept_says_the_v0_flags_are_gone():
    result = run_cli("explain", "num_speculative_tokens")
    assert result.code == 0
    wrong = result.stdout.split("## What goes wrong", 1)[1].split("##", 1)[0]
    [line] = [line for line in wrong.splitlines() if "V0" in line]
    for flag in launch._VLLM_V0_FLAGS:
        assert f"`--{flag} " in line
    assert f"removed in {launch._VLLM_V0_FLAGS_REMOVED}" in line
    assert f"`--speculative-config` since {launch._VLLM_SPEC_CONFIG_SINCE}" in line
