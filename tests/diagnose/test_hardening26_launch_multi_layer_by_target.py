"""SGLang turns multi-layer EAGLE on by itself for MiMo-V2 and Step-3.5 targets.

With `--speculative-algorithm EAGLE`, SGLang sets enable_multi_layer_eagle for these targets
without the flag (PyPI wheels: 0.5.13 server_args.py `_handle_model_specific_adjustments`;
0.5.16-0.5.23 arg_groups/overrides.py, model_overrides/mimo_v2.py), and from 0.5.13 the
multi-layer draft worker asserts draft tokens == steps + 1. A tree written for such a target
was no finding: the flag was not in the command.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

MIMO = ("python3 -m sglang.launch_server --model-path XiaomiMiMo/MiMo-V2-Flash --trust-remote-code --tp 8 "
        "--speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk {topk} "
        "--speculative-num-draft-tokens {tokens}")


def _chain(command, architecture="MiMoV2FlashForCausalLM", version=None):
    eff = effective_spec(parse_launch_command(command), target_architecture=architecture, engine_version=version)
    return [line for line in eff.problems if "multi-layer" in line]


def test_a_tree_on_a_target_sglang_runs_multi_layer_for():
    (line,) = _chain(MIMO.format(topk=2, tokens=8))
    assert "MiMoV2FlashForCausalLM target (SGLang turns multi-layer EAGLE on" in line and "got 8 and 3" in line
    assert _chain(MIMO.format(topk=2, tokens=8), "Step3p5ForCausalLM")


def test_a_chain_other_targets_and_older_releases_are_no_finding():
    assert _chain(MIMO.format(topk=1, tokens=4)) == []
    assert _chain(MIMO.format(topk=2, tokens=8), "LlamaForCausalLM") == []
    assert _chain(MIMO.format(topk=2, tokens=8), version="0.5.12") == []
    assert _chain(MIMO.format(topk=2, tokens=8).replace("EAGLE ", "EAGLE3 ")) == []
