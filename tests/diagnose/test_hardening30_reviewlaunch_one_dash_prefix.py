"""A one-dash prefix of vLLM's -sc / -tp is that option: argparse matches a one-dash word against
every option string that starts with it (CPython Lib/argparse.py `_get_option_tuples`, allow_abbrev
left on by FlexibleArgumentParser), and among vllm serve's one-dash options only -sc starts with -s
and only -tp with -t. `vllm serve M -t 2 -s '{...}'` serves EAGLE-3 at TP 2 (from 0.19.0, the release
with -sc); the audit read neither word (no speculation, TP unknown)."""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

# vLLM docs, features/speculative_decoding/eagle.md (the EAGLE-3 example served with vllm serve),
# its -tp / -sc written by their one-letter prefixes
COMMAND = ("vllm serve meta-llama/Meta-Llama-3.1-8B-Instruct --seed 42 -t 2 -s "
           "'{\"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"draft_tensor_parallel_size\": 1, "
           "\"num_speculative_tokens\": 2, \"method\": \"eagle3\"}'")


def test_one_dash_prefixes_are_the_short_options():
    cfg = parse_launch_command(COMMAND)
    assert (cfg.algorithm, cfg.num_steps, cfg.tp) == ("EAGLE3", 2, 2)
    assert cfg.draft_model == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
    dotted = parse_launch_command("vllm serve m -t=4 -s.method eagle3 -s.model d -s.num_speculative_tokens 3")
    assert (dotted.algorithm, dotted.num_steps, dotted.tp, dotted.draft_model) == ("EAGLE3", 3, 4, "d")


def test_before_0_19_the_prefix_of_sc_is_refused_as_sc_is():
    problems = effective_spec(parse_launch_command(COMMAND), engine_version="0.18.0").problems
    assert problems[0].startswith("-sc: vLLM 0.18.0 does not have it"), problems
