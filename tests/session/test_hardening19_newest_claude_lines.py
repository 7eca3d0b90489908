"""Claude Code 2.1.1xx-2.1.2xx write bookkeeping lines about the session (worktree, colour,
file-history deltas, remote bridge, relocation): known lines, not "unknown types"."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session.analysis import analyze_path

SESSION = Path(__file__).resolve().parents[1] / "data" / "transcripts_newest" / "c3d4e5f6-0000-4000-8000-00000000b003.jsonl"


def test_a_session_in_a_worktree_has_no_unknown_lines_and_reads_as_claude_code():
    doc = analyze_path(SESSION).to_json()
    assert doc["format"] == "claude-code"
    assert doc["stats"]["unknown_types"] == 0
    assert doc["stats"]["events"] == 10
    assert [(c["seq"], c["host"], c["exit_code"]) for c in doc["commands"]] == [(6, "gpu01", 0)]
    assert [p["seq"] for p in doc["prompts"]] == [5]


def test_messages_from_teammates_are_no_prompts_of_the_person():
    # Agent teams (2.1.2xx): a teammate's report and an idle notification reach the lead's
    # session as user lines; the person typed only the first and the last prompt.
    doc = analyze_path(SESSION.with_name("c3d4e5f6-0000-4000-8000-00000000b004.jsonl")).to_json()
    assert [p["seq"] for p in doc["prompts"]] == [0, 5]
    assert [s["start_seq"] for s in doc["segments"]] == [0, 5]
    assert [m["value"] for m in doc["metrics"] if m["name"] == "accept_length"] == [1.02]


def test_the_clis_own_suggestion_and_side_question_agents_are_no_agents_of_the_session():
    # subagents/agent-aprompt_suggestion-*.jsonl and agent-aside_question-*.jsonl: written by the
    # CLI for itself (a suggested next prompt; a /btw fork replaying the trunk), dispatched by nothing.
    doc = analyze_path(SESSION.with_name("c3d4e5f6-0000-4000-8000-00000000b007.jsonl")).to_json()
    assert [a["id"] for a in doc["agents"]] == ["main"]
    assert [p["text"] for p in doc["prompts"]] == ["is speculative decoding on for the server on gpu01?"]
    assert len(doc["commands"]) == 1 and doc["stats"]["missing_files"] == 0
