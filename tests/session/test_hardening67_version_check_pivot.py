"""A failed launch, then `pip show sglang`: the agent turned from relaunching to checking the
installed versions. The version check is category "other" in commands[], and "other" counted as
the ordinary fix-and-retry loop, so the analyzer recorded no pivot (and the upgrade after it none
either). The pivot logic now gives a version check its own kind; the JSON's categories stay as
they were ("other"), and distill keeps such a check as a step only where it decided an upgrade."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.commands import analysis_json
from tests.session.test_hardening65_distill_version_checks import _FAILED, _LAUNCH, _session

_INSTALL = "ssh gpu01 'pip install -U \"sglang[all]==0.4.6\"'"
_SUMMARY = ("After tool_error: launch_server.py: error: argument --speculative-algorithm: invalid choice: 'EAGLE3' "
            "(choose from 'EAGLE', 'NEXTN') [msg 2], moved from launching the server to checking installed "
            "versions: {} (on gpu01)")


def _doc(path: Path) -> dict:
    return json.loads(analysis_json(analyze_path(path)))


def test_a_version_check_after_a_failed_launch_is_a_pivot(tmp_path: Path) -> None:
    for check in ("pip show sglang", "pip list 2>/dev/null | grep -i sglang"):
        doc = _doc(_session(tmp_path / "s.jsonl", [(f"ssh gpu01 '{check}'", "0.4.1")], _INSTALL))
        assert [(p["seq"], p["trigger_seq"], p["from_category"], p["to_category"], p["summary"])
                for p in doc["pivots"]] == [(3, 2, "launch_server", "other", _SUMMARY.format(check))], check
        assert [c["category"] for c in doc["commands"]] == ["launch_server", "other", "other"]
        assert [s["title"] for s in doc["segments"]][1] == "Checking installed versions (pivot after [msg 2]) on gpu01"


def test_another_command_and_a_second_check_are_no_pivot(tmp_path: Path) -> None:
    # another command of kind "other" after the failure is still the retry loop, as before
    doc = _doc(_session(tmp_path / "s.jsonl", [("ssh gpu01 'pip download sglang==0.4.6 -d /tmp/w'", "Saved")],
                        _INSTALL))
    assert doc["pivots"] == []
    # relaunch fails again, checked again: the agent already checked versions, no new turn
    doc = _doc(_session(tmp_path / "s.jsonl", [("ssh gpu01 'pip show sglang'", "Version: 0.4.1"),
                                               (_LAUNCH, _FAILED),
                                               ("ssh gpu01 'pip show sglang'", "Version: 0.4.1")], _INSTALL))
    assert [p["seq"] for p in doc["pivots"]] == [3]
