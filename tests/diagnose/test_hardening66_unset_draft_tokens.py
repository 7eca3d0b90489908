"""Draft tokens left unset with topk 1 are no SD102: SGLang fills in steps + 1 itself.

`--speculative-num-steps 3 --speculative-eagle-topk 1` without `--speculative-num-draft-tokens`
is a healthy launch (server_args.py sets steps + 1, the most a chain can verify); the audit
raised an SD102 warning, "--speculative-num-draft-tokens unset is overwritten to 4", about a
budget the user never wrote. A written budget the engine overrides stays SD102."""

from __future__ import annotations

from spec_debug.diagnose.checks.launch_flags import check_draft_budget
from spec_debug.diagnose.launch import effective_spec, parse_launch_command

SGLANG = ("python -m sglang.launch_server --model-path /m/target --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /m/draft")


def _budget(extra: str) -> list:
    launch = parse_launch_command(SGLANG + extra)
    return check_draft_budget(launch, effective_spec(launch))


def test_unset_draft_tokens_with_topk_one_are_no_finding():
    assert _budget(" --speculative-num-steps 3 --speculative-eagle-topk 1") == []
    assert _budget(" --speculative-num-steps 5 --speculative-eagle-topk 1") == []
    # what runs is still said by the effective spec
    eff = effective_spec(parse_launch_command(SGLANG + " --speculative-num-steps 3 --speculative-eagle-topk 1"))
    assert eff.num_draft_tokens == 4


def test_a_written_budget_the_engine_overrides_is_still_sd102():
    found = _budget(" --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 8")
    assert [f.code for f in found] == ["SD102"]
    assert "--speculative-num-draft-tokens 8 is overwritten to 4" in found[0].evidence[0]
    tree = _budget(" --speculative-num-steps 3 --speculative-eagle-topk 4")
    assert [f.code for f in tree] == ["SD102"] and "needs --speculative-num-draft-tokens" in tree[0].evidence[0]
