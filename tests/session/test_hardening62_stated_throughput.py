"""postmortem: a throughput only stated (in the report, or a notes file read) is not "measured".

A session whose only throughput numbers were the user's report or a notes file the agent read
(MetricRecord.source "prose") had _impact fall back to those readings, and the summary said
"Throughput was measured once: 95 tok/s". It now says the number was stated, not measured in the
session; a session that measured keeps "measured once", and two stated numbers their "went from".
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer

NOTES = "# notes\n- EAGLE-3: 95 tok/s.\n- Accept length 1.0.\n"
LOG = ("[2026-03-02 08:00:01] Decode batch. #running-req: 1, #token: 412, token usage: 0.01, accept len: 1.02, "
       "gen throughput (token/s): 94.7, #queue-req: 0\n")


def _postmortem(tmp_path, prompt, *reads):
    w = _Writer("62620000-0000-4000-8000-0000000000d1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt(prompt)
    for path, text in reads:
        w.tool("Read", {"file_path": path}, text)
    w.say("Here is the summary.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return [line for line in render_postmortem(analyze_path(path), "md").splitlines()
            if line.startswith(("- Throughput", "- First"))]


def test_a_throughput_in_the_prompt_alone_is_stated(tmp_path):
    assert _postmortem(tmp_path, "EAGLE-3 on our server gives 41 tok/s. Why is it slow?") == [
        "- Throughput was stated, not measured in the session: 41 tok/s [[msg 0]](#msg-0).",
        "- First stated throughput: 41 tok/s [[msg 0]](#msg-0)."]


def test_a_throughput_in_a_notes_file_alone_is_stated(tmp_path):
    assert _postmortem(tmp_path, "Summarize what we found.", ("/root/NOTES.md", NOTES)) == [
        "- Throughput was stated, not measured in the session: 95 tok/s [[msg 2]](#msg-2).",
        "- First stated throughput: 95 tok/s [[msg 2]](#msg-2)."]


def test_two_stated_numbers_are_a_change_as_stated(tmp_path):
    # what the report and the notes say went from one to the other (test_hardening37_reversed_from:
    # "dropped to 54.8 tok/s from 90 tok/s" is "went from 90 tok/s to 54.8 tok/s"): no "measured" there
    assert _postmortem(tmp_path, "EAGLE-3 gives 41 tok/s. Summarize NOTES.md.", ("/root/NOTES.md", NOTES)) == [
        "- Throughput went from 41 tok/s [[msg 0]](#msg-0) to 95 tok/s [[msg 2]](#msg-2).",
        "- First stated throughput: 41 tok/s [[msg 0]](#msg-0)."]


def test_a_measured_throughput_is_still_measured(tmp_path):
    assert _postmortem(tmp_path, "Summarize what we found.", ("/root/NOTES.md", NOTES), ("/root/server.log", LOG)) == [
        "- Throughput was measured once: 94.7 tok/s [[msg 4]](#msg-4).",
        "- First measured throughput: 94.7 tok/s [[msg 4]](#msg-4)."]
