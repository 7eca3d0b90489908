"""Review of the vLLM engine start line reader (session 15, commit 1f71e9b): V0's SpeculativeConfig.

vLLM 0.4 .. 0.7 logged the draft alone, `speculative_config=SpeculativeConfig(draft_model='...',
num_spec_tokens=5)` (`draft_model='[ngram]'` for n-gram; vllm/config.py SpeculativeConfig.__repr__
of that era). Only the V1 form (method=, model=, num_spec_tokens=) was read: a V0 line was audited
as a server without speculation, no word said. A form neither reads now says so.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

V0_LINE = ("INFO 11-20 10:00:00 llm_engine.py:237] Initializing an LLM engine (v0.6.4.post1) with config: "
           "model='meta-llama/Meta-Llama-3-8B-Instruct', speculative_config=SpeculativeConfig("
           "draft_model='{draft}', num_spec_tokens=5), tokenizer='meta-llama/Meta-Llama-3-8B-Instruct', "
           "skip_tokenizer_init=False, tokenizer_mode=auto, dtype=torch.bfloat16, max_seq_len=8192, "
           "load_format=LoadFormat.AUTO, tensor_parallel_size=1, pipeline_parallel_size=1, seed=0")


@pytest.mark.parametrize("draft, algorithm", [("yuhuili/EAGLE-LLaMA3-Instruct-8B", "EAGLE"), ("[ngram]", "NGRAM")])
def test_a_v0_engine_line_keeps_its_draft(draft, algorithm):
    cfg = parse_launch_command(V0_LINE.format(draft=draft))
    assert cfg.algorithm == algorithm and cfg.num_steps == 5 and cfg.draft_model == draft


def test_a_speculative_config_in_an_unread_form_is_said():
    line = V0_LINE.replace("draft_model='{draft}', num_spec_tokens=5", "method='eagle3', num_spec_tokens=3, draft_tp=1")
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(line)
    assert "speculative_config" in exc.value.message and "paste the server's command line" in exc.value.hint


def test_no_speculation_logged_is_a_plain_server():
    line = V0_LINE.replace("SpeculativeConfig(draft_model='{draft}', num_spec_tokens=5)", "None")
    cfg = parse_launch_command(line)
    assert cfg.algorithm is None and cfg.target_model == "meta-llama/Meta-Llama-3-8B-Instruct"
