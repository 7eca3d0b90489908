"""`-sc` is a spelling of --speculative-config from vLLM 0.19.0 (vllm/engine/arg_utils.py
`add_argument("--speculative-config", "-sc", ...)`: in the 0.19.0 wheel, not in 0.18's): there,
`--speculative-config.method eagle3 ... -sc.num_speculative_tokens 2` runs `-sc`'s keys alone
(FlexibleArgumentParser adds each spelling's dotted keys as a JSON value of its own, the last wins).
On an older release argparse exits on `-sc` ("unrecognized arguments"): the audit said so, and also
said `-sc` was "another spelling of --speculative-config" whose keys replaced the others, which is
not so there."""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

SPEC = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config.method eagle3 "
        "--speculative-config.model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
        "--speculative-config.num_speculative_tokens 3 -sc.num_speculative_tokens 2")


def test_sc_replaces_the_other_spellings_keys_only_where_it_is_an_option():
    cfg = parse_launch_command(SPEC)
    old = effective_spec(cfg, engine_version="0.18.0").problems
    assert old[0].startswith("-sc: vLLM 0.18.0 does not have it (added in 0.19.0)"), old
    assert not any("another spelling" in p for p in old), old
    for version in ("0.19.0", None):
        problems = effective_spec(cfg, engine_version=version).problems
        assert any(p.startswith("the dotted keys of --speculative-config are replaced by those of -sc, another "
                                "spelling") for p in problems), problems
