"""SD101: a draft config whose speculative_tokens is far past any trained depth is no depth to serve.

A draft whose config.json says `speculative_tokens: 1000000000` (an extra digit, a byte count
written into the wrong field), served with `--speculative-num-steps 1`, was told "Serve with
1000000000 steps: --speculative-num-steps 1000000000 ... --speculative-num-draft-tokens
1000000001", the slip repeated as the fix. Such a value is now named as a fault of the draft's
config, and SD101 is a warning with a fix that does not repeat it.
"""

from __future__ import annotations

from spec_debug.diagnose.checks import check_num_steps
from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from tests.diagnose.test_checks import AT, SGL

ONE_STEP = SGL + "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2"


def test_a_trained_depth_of_a_billion_is_no_fix_to_serve():
    cfg = parse_launch_command(ONE_STEP)
    (found,) = check_num_steps(cfg, effective_spec(cfg), trained_steps=10**9, at=AT)
    assert (found.code, found.severity) == ("SD101", "warning")
    assert "1000000000" not in found.remediation and "correct speculative_tokens" in found.remediation
    assert any("the draft config says 1000000000 speculative tokens" in line and "past any trained depth" in line
               for line in found.evidence), found.evidence
    assert found.facts["trained_steps"] is None


def test_a_trained_depth_in_use_is_still_the_fix():
    cfg = parse_launch_command(ONE_STEP)
    (found,) = check_num_steps(cfg, effective_spec(cfg), trained_steps=7, at=AT)
    assert (found.code, found.severity) == ("SD101", "error")
    assert "--speculative-num-steps 7" in found.remediation
