"""A dotted value such as `32k` is a number only on the vLLM releases that read it as one.

vllm-project/vllm PR #40473 made FlexibleArgumentParser.parse_args read a dotted key's value that
is not JSON as human_readable_int (`--speculative-config.max_model_len 32k` = 32000); the PyPI
wheels show 0.20.0 has it in vllm/utils/argparse_utils.py and 0.19.1 keeps the text, which
SpeculativeConfig's validation refuses for an integer key. The audit read `32k` as 32000 on every
release (round 29), so a 0.19.1 server that does not start was audited as one that runs."""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

SPEC = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config.method eagle3 "
        "--speculative-config.model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B ")


def test_a_human_readable_dotted_value_is_text_before_0_20():
    cfg = parse_launch_command(SPEC + "--speculative-config.num_speculative_tokens 3 "
                                      "--speculative-config.max_model_len 32k")
    assert cfg.speculative_config["max_model_len"] == 32000  # the newest release's reading
    problems = effective_spec(cfg, engine_version="0.19.1").problems
    assert any(p.startswith("--speculative-config.max_model_len 32k: vLLM 0.19.1 keeps the text '32k'")
               for p in problems), problems
    # 0.20.0 and a release left unknown read 32000; a nightly past 0.19 may hold the PR
    for version in ("0.20.0", None, "0.19.2.dev5"):
        assert not any("keeps the text" in p for p in effective_spec(cfg, engine_version=version).problems)


def test_a_short_spellings_human_readable_k_is_refused_on_an_older_release():
    cfg = parse_launch_command(SPEC.replace("--speculative-config.", "-sc.") + "-sc.num_speculative_tokens 2k")
    problems = effective_spec(cfg, engine_version="0.19.0").problems
    assert any(p.startswith("-sc.num_speculative_tokens 2k: vLLM 0.19.0 keeps the text '2k'") for p in problems), problems


def test_a_text_key_keeps_its_text_on_an_older_release_without_a_word():
    # revision is a string field: 0.19.1 takes "1k" as the revision (no refusal to report)
    cfg = parse_launch_command(SPEC + "--speculative-config.num_speculative_tokens 3 --speculative-config.revision 1k")
    assert not any("keeps the text" in p for p in effective_spec(cfg, engine_version="0.19.1").problems)
