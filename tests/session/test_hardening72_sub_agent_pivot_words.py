"""A sub-agent's failure its parent turned from is said in words, as the agent's own is.

A Claude Code sub-agent sent to launch SGLang on gpu01 failed and reported back; its parent then
checked the installed version (a pivot, analysis._spawn_pivots). The postmortem's timeline row
and What went well said it by the JSON's kind, "After sub-agent abc123's exit_code:
launch_server.py: error: ..." and "Changed approach after sub-agent abc123's connection: ssh:
...", though a failure of the agent's own is "After launch_server.py: error: ..." (hardening 71,
72): failures.summary_said took "sub-agent abc123's exit_code" for the kind. Whose failure it
was is kept; the kind is said in words. The JSON's summary is as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tests.session.test_hardening68_spawn_version_check as spawn
from spec_debug.session import analyze_path
from spec_debug.session.commands import analysis_json
from spec_debug.session.distill import trigger_said
from spec_debug.session.failures import summary_said
from spec_debug.session.postmortem import postmortem_view, render_postmortem

INVALID = ("launch_server.py: error: argument --speculative-algorithm: invalid choice: 'EAGLE3' "
           "(choose from 'EAGLE', 'NEXTN')")
REFUSED = "ssh: connect to host gpu01 port 22: Connection refused"
KINDS = ("exit_code:", "connection:", "tool_error:", "timeout:")


def _said(tmp_path: Path, kind: str, said: str) -> None:
    analysis = analyze_path(spawn._session(tmp_path, "ssh gpu01 'pip show sglang'", "Name: sglang\nVersion: 0.4.1"))
    assert [(e.agent, e.kind) for e in analysis.errors] == [("abc123", kind)]
    (pivot,) = analysis.pivots
    assert pivot.summary.startswith(f"After sub-agent abc123's {kind}: {said} [msg 2], moved from ")  # the JSON's
    assert trigger_said(pivot, 400) == f"sub-agent abc123's {said}"
    md = render_postmortem(analysis, "md")
    assert (f"| main | pivot | After sub-agent abc123's {said} [[msg 7]](#msg-7), reported at [[msg 2]](#msg-2), "
            "moved from launching the server "
            "to checking installed versions: pip show sglang (on gpu01) |") in md, md
    (well,) = [x for x in postmortem_view(analysis)["went_well"] if x.startswith("Changed approach")]
    assert well.startswith(f"Changed approach after sub-agent abc123's {said[:40]}"), well
    for k in KINDS:
        assert f"'s {k}" not in md, k
    doc = json.loads(analysis_json(analysis))
    assert doc["pivots"][0]["summary"] == pivot.summary


def test_a_sub_agents_failed_launch(tmp_path: Path) -> None:
    _said(tmp_path, "exit_code", INVALID)


def test_a_sub_agents_failed_connection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spawn, "_FAILED", f"Exit code 255\n{REFUSED}")
    _said(tmp_path, "connection", REFUSED)


def test_the_words_of_a_sub_agents_summary() -> None:
    assert summary_said(f"sub-agent abc123's connection: {REFUSED}") == f"sub-agent abc123's {REFUSED}"
    assert summary_said("sub-agent a1's exit_code: curl: (22) error: 401", 22) == (
        "sub-agent a1's exit status 22: curl: (22) error: 401")
    assert summary_said("sub-agent a1's timeout: Loading weights") == "sub-agent a1's timed out: Loading weights"
    assert summary_said("sub-agent a1's IndexError: index 32000") == "sub-agent a1's IndexError: index 32000"
    assert summary_said("sub-agent's notes: exit_code: 1") == "sub-agent's notes: exit_code: 1"  # no agent's id
