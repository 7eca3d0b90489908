"""A sub-agent's `--speculative-algorithm EAGLE3` launch failed; the agent that sent it then
launched the server again itself, with the flag put right. That is the ordinary fix-and-retry,
as after a failed launch of its own, but the hand-over of a sub-agent's failure compared the
next call with the spawn call's kind ("other"), not with the sub-agent's failed step: a pivot
"moved from running commands to launching the server". The failed approach is now the
sub-agent's own (its failed step's kind and the steps before it): a relaunch is no pivot, and a
real turn says what it turned from."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.test_hardening68_spawn_version_check import _LAUNCH, _session


def test_the_parent_relaunching_after_its_sub_agents_failed_launch_is_no_pivot(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, _LAUNCH.replace("EAGLE3", "EAGLE"), "ready to roll"))
    assert a.pivots == []


def test_a_turn_after_it_is_from_the_sub_agents_step(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, "ssh gpu01 'pip show sglang'", "Name: sglang\nVersion: 0.4.1"))
    assert [(p.seq, p.from_category, p.to_category) for p in a.pivots] == [(3, "launch_server", "other")]
    assert " moved from launching the server to checking installed versions: " in a.pivots[0].summary
