"""Before vLLM 0.19 (no -sc: argparse exits on it) the rest of the audit reads the command as the
refusal's fix gives it, -sc's dotted keys spelled --speculative-config. Those merge with the other
--speculative-config.KEY words into one dict (vllm/utils/argparse_utils.py `parse_args`: dict_args
is keyed by the flag as written, so one spelling is one dict): nothing is replaced. The 0.19+
reading (each spelling a dict of its own, the last wins whole) left a problem that is not so there:
`--speculative-config.method eagle3 --speculative-config.model D --speculative-config.num_speculative_tokens 3
-sc.num_speculative_tokens 2` on 0.18 said {"num_speculative_tokens": 2} had no draft model."""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

# test_hardening29_reviewlaunch_sc_before_0_19.py's command
SPEC = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config.method eagle3 "
        "--speculative-config.model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
        "--speculative-config.num_speculative_tokens 3 -sc.num_speculative_tokens 2")


def test_before_0_19_sc_keys_merge_with_the_long_spellings():
    cfg = parse_launch_command(SPEC)
    for version in ("0.10.0", "0.18.0"):
        eff = effective_spec(cfg, engine_version=version)
        assert len(eff.problems) == 1 and eff.problems[0].startswith(f"-sc: vLLM {version} does not have it"), eff.problems
        assert eff.num_steps == 2
    # 0.19 and later: -sc's keys replace the others whole, so no draft model and no method
    assert any("no draft model and no method" in p for p in effective_spec(cfg, engine_version="0.19.0").problems)


def test_before_0_19_a_key_missing_from_both_spellings_is_still_said():
    cfg = parse_launch_command("vllm serve m --speculative-config.method eagle3 -sc.model=yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")
    problems = effective_spec(cfg, engine_version="0.18.0").problems
    assert problems[0].startswith("-sc: vLLM 0.18.0 does not have it")
    assert problems[1].startswith("num_speculative_tokens missing from --speculative-config"), problems
    assert len(problems) == 2
