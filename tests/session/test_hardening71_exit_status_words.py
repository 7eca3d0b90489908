"""A failure known only by its exit status is said in words where people read it.

An OpenAI chat log whose `curl -fsS` of a gated Hub file failed (curl prints "curl: (22) The
requested URL returned error: 401" and exits 22) showed the JSON's identifier in the postmortem:
"First error: exit_code: curl: (22) ...", a timeline row "error | exit_code: curl: ...", a pivot
row "After exit_code: curl: ...", and the distilled step's why "Its result (exit_code: curl: ...)".
They say "exit status 22: curl: (22) ..." now (the status where the command's is known, else what
the command printed); the JSON keeps its kind and the pivot's summary as they were."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from spec_debug.session.postmortem import render_postmortem

URL = "https://huggingface.co/yuhuili/EAGLE3-LLaMA3.1-Instruct-8B/resolve/main/config.json"
SAID = "curl: (22) The requested URL returned error: 401"


def _session(tmp_path: Path) -> Path:
    def call(i: str, command: str) -> dict:
        return {"id": i, "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": command})}}
    messages = [
        {"role": "user", "content": "Download the EAGLE3 draft for gpu01 and check its config."},
        {"role": "assistant", "content": "Fetching the config from the hub.", "tool_calls": [call("a", f"curl -fsS {URL}")]},
        {"role": "tool", "tool_call_id": "a", "content": f"{SAID}\n[exit code: 22]"},
        {"role": "assistant", "content": "", "tool_calls": [call("b", "ls /models/eagle3-draft")]},
        {"role": "tool", "tool_call_id": "b", "content": "config.json"},
    ]
    path = tmp_path / "hub-401.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    return path


def test_the_postmortem_says_the_exit_status_in_words(tmp_path: Path) -> None:
    analysis = analyze_path(_session(tmp_path))
    [error] = analysis.errors
    assert (error.kind, error.exception, error.message) == ("exit_code", None, SAID)  # the JSON as it was
    assert analysis.pivots[0].summary.startswith(f"After exit_code: {SAID} [msg 2]")
    md = render_postmortem(analysis, "md")
    assert f"- First error: exit status 22: {SAID} [[msg 2]](#msg-2) (main)." in md, md
    assert f"| [[msg 2]](#msg-2) |  | main | error | exit status 22: {SAID} |" in md, md
    assert f"| main | pivot | After {SAID} [[msg 2]](#msg-2), moved from" in md, md
    assert f"hub-401.json:1`: exit status 22: {SAID}; result of [[msg 1]](#msg-1): exit 22" in md, md
    assert "exit_code:" not in md


def test_the_status_said_is_the_commands(tmp_path: Path) -> None:
    """A script that prints its own failure and exits 3: its status, not curl's."""
    path = _session(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace(f"curl -fsS {URL}", "python3 fetch_draft.py")
                    .replace(SAID, "HTTP 401 Unauthorized").replace("[exit code: 22]", "[exit code: 3]"), encoding="utf-8")
    md = render_postmortem(analyze_path(path), "md")
    assert "- First error: exit status 3: HTTP 401 Unauthorized [[msg 2]](#msg-2) (main)." in md, md


def test_a_distilled_why_says_the_exit_status_in_words(tmp_path: Path) -> None:
    whys = {step["run"]: step["why"] for step in distill_playbook(analyze_path(_session(tmp_path)))["steps"]}
    assert whys[f"curl -fsS {URL}"] == (f"Fetching the config from the hub. Its result (exit status 22: {SAID}) "
                                        "prompted a change of approach at [msg 3].")
    assert whys["ls {{ eagle3_draft }}"] == f"It was the first step of a change of approach after {SAID} [msg 2]."
