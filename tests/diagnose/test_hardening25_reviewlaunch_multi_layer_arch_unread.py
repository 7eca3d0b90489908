"""Multi-layer EAGLE's chain assert is not claimed from auto-chosen values guessed for an unread target (review of 9d5db3a).

SGLang auto-chooses (steps, topk, draft tokens) by the target's architecture: (5, 4, 8) for
Llama and Grok only, the chain (3, 1, 4) for every other target from 0.5.8 (server_args.py
`auto_choose_speculative_params`). The MTP targets `--enable-multi-layer-eagle` is made for
(MiMo-V2-Flash, Step3.5) get the chain. With the target's config not read, the audit assumes
(5, 4, 8), and 9d5db3a said the server does not start: a false SD102 on
`--model-path XiaomiMiMo/MiMo-V2-Flash --speculative-algorithm EAGLE --enable-multi-layer-eagle`.
Values written on the command line, and a Llama target read as one (#36536), are still SD102.
"""

from __future__ import annotations

from spec_debug.diagnose.checks.launch_flags import check_draft_budget
from spec_debug.diagnose.launch import effective_spec, parse_launch_command

MIMO = ("python3 -m sglang.launch_server --model-path XiaomiMiMo/MiMo-V2-Flash --speculative-algorithm EAGLE "
        "--enable-multi-layer-eagle --trust-remote-code")


def _budget(command, architecture):
    cfg = parse_launch_command(command)
    return check_draft_budget(cfg, effective_spec(cfg, target_architecture=architecture))


def test_auto_chosen_values_of_an_unread_target_are_no_finding():
    assert _budget(MIMO, None) == []


def test_written_values_and_a_llama_target_still_fail_the_assert():
    (finding,) = _budget(MIMO + " --speculative-num-steps 3 --speculative-eagle-topk 2 "
                                "--speculative-num-draft-tokens 8", None)
    assert "got 8 and 3" in finding.evidence[-1]
    (finding,) = _budget(MIMO, "LlamaForCausalLM")
    assert "got 8 and 5" in finding.evidence[-1]
