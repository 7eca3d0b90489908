"""`-s.KEY` is argparse's prefix of vLLM's -sc (from 0.19.0), but FlexibleArgumentParser gathers dotted
keys by the flag as written (vllm-project/vllm vllm/utils/argparse_utils.py `parse_args`: dict_args is
keyed `-s`, apart from `-sc` and `--speculative-config`) and appends each as a JSON value of its own, so
the last spelling's keys win whole. The audit wrote `-s.KEY` as `-sc.KEY` first: on 0.19 `-s.method
eagle3 -s.model D -sc.num_speculative_tokens 3` was read as a whole EAGLE-3 config (vLLM refuses
{"num_speculative_tokens": 3}), and before 0.19 `--speculative-config.KEY ... -s.KEY` was read with
-s's dict replacing the others while the same line with -sc merged them (as the refusal's fix,
--speculative-config '{...}', gives it)."""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

DRAFT = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"


def test_s_and_sc_dotted_keys_are_two_configs_and_the_last_wins():
    cfg = parse_launch_command(f"vllm serve meta-llama/Llama-3.1-8B-Instruct -s.method eagle3 -s.model {DRAFT} "
                               "-sc.num_speculative_tokens 3")
    assert cfg.speculative_config == {"num_speculative_tokens": 3}
    assert (cfg.algorithm, cfg.draft_model, cfg.replaced_dotted) == (None, None, ("-s", "-sc"))
    problems = effective_spec(cfg, engine_version="0.19.0").problems
    assert any(p.startswith("the dotted keys of -s are replaced by those of -sc") for p in problems), problems


def test_s_alone_is_one_config():
    cfg = parse_launch_command(f"vllm serve m -s.method eagle3 -s.model {DRAFT} -s.num_speculative_tokens=3")
    assert (cfg.algorithm, cfg.num_steps, cfg.draft_model, cfg.replaced_dotted) == ("EAGLE3", 3, DRAFT, ())


def test_before_0_19_s_dotted_keys_are_read_as_sc_ones_are():
    head = f"vllm serve m --speculative-config.method eagle3 --speculative-config.model {DRAFT} "
    for short in ("-s", "-sc"):
        problems = effective_spec(parse_launch_command(head + f"{short}.num_speculative_tokens 3"),
                                  engine_version="0.18.0").problems
        assert problems[0].startswith("-sc: vLLM 0.18.0 does not have it (added in 0.19.0)"), problems
        assert not any("replaced by those of" in p for p in problems), (short, problems)
