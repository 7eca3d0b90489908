"""The figures of `sgl.Engine(speculative_algorithm="eagle3")` before 0.5.12 are what SGLang runs.

A Python call's lower-case name skips ServerArgs.__post_init__'s speculative block (it compares
the raw value with "EAGLE", "EAGLE3", "STANDALONE"), and that block is where the steps, topk and
draft tokens are auto-chosen and rewritten (topk 1 -> draft tokens = steps + 1); the worker still
upper-cases the name (SpeculativeAlgorithm.from_string) and drafts. Read from the PyPI wheels 0.4.6,
0.5.2 and 0.5.10.post1 (srt/server_args.py, srt/speculative/spec_info.py). Was: the problem line
said the set-up is skipped, while the figures beside it were the auto-chosen (5, 4, 8).
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_SCRIPT = ('import sglang as sgl\nllm = sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct", '
           'speculative_algorithm="{}", speculative_draft_model_path="/models/eagle3"{})')


def _spec(algorithm: str, version: str, settings: str = ""):
    return effective_spec(parse_launch_command(_SCRIPT.format(algorithm, settings)), engine_version=version,
                          target_architecture="LlamaForCausalLM")


@pytest.mark.parametrize(("written", "version"), [("eagle3", "0.5.10.post1"), ("eagle", "0.5.2"),
                                                  ("standalone", "0.5.2")])
def test_nothing_is_auto_chosen_and_the_unset_settings_stay_none(written: str, version: str) -> None:
    eff = _spec(written, version)
    assert (eff.num_steps, eff.topk, eff.num_draft_tokens, eff.auto_chosen, eff.overrides) == (None, None, None,
                                                                                                False, [])
    assert eff.problems[1:] == [
        f"speculative_num_steps, speculative_eagle_topk, speculative_num_draft_tokens unset with the speculative "
        f"set-up skipped: SGLang {version} chooses nothing, they stay None, and its workers compute with them "
        "(TypeError): Engine(...) does not serve (write the upper-case algorithm name)"]


def test_one_unset_setting_is_named_alone() -> None:
    eff = _spec("eagle3", "0.5.2", ", speculative_num_steps=3, speculative_eagle_topk=1")
    assert eff.problems[1:] == [
        "speculative_num_draft_tokens unset with the speculative set-up skipped: SGLang 0.5.2 chooses nothing, it "
        "stays None, and its workers compute with it (TypeError): Engine(...) does not serve (write the upper-case "
        "algorithm name)"]


def test_written_settings_are_not_rewritten_for_topk_1() -> None:
    eff = _spec("eagle3", "0.5.2", ", speculative_num_steps=3, speculative_eagle_topk=1, "
                                   "speculative_num_draft_tokens=4")
    assert (eff.num_steps, eff.topk, eff.num_draft_tokens, eff.overrides) == (3, 1, 4, [])
    eff = _spec("eagle3", "0.5.2", ", speculative_num_steps=3, speculative_eagle_topk=1, "
                                   "speculative_num_draft_tokens=8")
    assert (eff.num_steps, eff.topk, eff.num_draft_tokens, eff.overrides) == (3, 1, 8, [])
    # (hardening74: with the crash SGLang's tree selection makes of it at startup)
    assert eff.problems[1:] == ["8 draft tokens need 7 tree nodes but steps=3, topk=1 offer only 3 "
                                "(topk + (steps-1)*topk^2): SGLang crashes at startup, capturing the draft CUDA "
                                "graph (torch.topk in its tree selection (organize_draft_results) asks for 7 of 3 "
                                "candidates: \"RuntimeError: selected index k out of range\"; use "
                                "speculative_num_draft_tokens=4 or fewer, or more steps or a larger topk)"]


@pytest.mark.parametrize(("written", "version"), [("EAGLE3", "0.5.10.post1"), ("eagle3", "0.5.12")])
def test_upper_case_or_from_0512_is_auto_chosen(written: str, version: str) -> None:
    eff = _spec(written, version)
    assert (eff.num_steps, eff.topk, eff.num_draft_tokens, eff.auto_chosen, eff.problems) == (5, 4, 8, True, [])


def test_the_command_line_is_not_read_as_skipped() -> None:
    # argparse refuses the lower-case name there: the figures are not the Python call's
    cfg = parse_launch_command("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
                               "--speculative-algorithm eagle3 --speculative-draft-model-path /models/eagle3")
    eff = effective_spec(cfg, engine_version="0.5.10.post1", target_architecture="LlamaForCausalLM")
    assert (eff.num_steps, eff.auto_chosen) == (5, True)
