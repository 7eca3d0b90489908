"""A --speculative-config key of a fork is not a misspelling of vLLM's.

Aphrodite's branch feat/ddtree (aphrodite-engine/aphrodite-engine 56b8074f,
aphrodite/config/speculative.py) gives its SpeculativeConfig `draft_attention_backend` and
`ddtree_tree_budget`; no vLLM release has them (vLLM's draft backend key is `attention_backend`).
The audit said 'SpeculativeConfig has no such key ... (write "attention_backend")': a key
copied from the fork was called a typo. It now says whose key it is and what vLLM does with it.
"""

from __future__ import annotations

import json

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

SPEC = {"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3,
        "draft_attention_backend": "FLASH_ATTN"}
LINE = f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{json.dumps(SPEC)}'"


def _key_lines(version):
    problems = effective_spec(parse_launch_command(LINE), engine_version=version).problems
    return [p for p in problems if "draft_attention_backend" in p]


def test_the_fork_key_is_named_as_the_forks_with_what_vllm_does():
    (line,) = _key_lines("0.15.1")
    assert "a key of Aphrodite" in line and "not of vLLM's SpeculativeConfig" in line
    assert "0.15.1 refuses it" in line and "vLLM's own key for it is \"attention_backend\"" in line
    assert "no such key" not in line and "(write" not in line
    (line,) = _key_lines("0.11.0")
    assert "drops it without a word" in line


def test_a_real_misspelling_is_still_one():
    spec = {**SPEC, "num_speculative_token": 3}
    del spec["draft_attention_backend"], spec["num_speculative_tokens"]
    problems = effective_spec(parse_launch_command(LINE.replace(json.dumps(SPEC), json.dumps(spec))),
                              engine_version="0.15.1").problems
    assert any('"num_speculative_token": SpeculativeConfig has no such key' in p for p in problems)
