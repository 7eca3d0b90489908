"""postmortem: what the session suspected and never settled is listed as an open question.

A postmortem that closes with hypotheses nobody confirmed or ruled out must say so: the next
engineer starts from them. The Markdown and HTML postmortems listed only the confirmed ("What
went well") and ruled-out ("What went wrong") ones; an open guess was a timeline row at most.
Now an "Open questions" section lists the open ones (the last ten), each linked to its message.
"""

from __future__ import annotations

import re

from spec_debug.session.postmortem import render_postmortem
from tests.session.test_hardening48_stated_root_cause import _session

GUESS = "The root cause might be the draft's d2t table."
SUSPECT = "I suspect the vocab map (d2t/t2d) of the new draft."
CONFIRMED = "That confirms it: d2t[1000:1006] holds absolute ids, not offsets."


def _section(markdown: str) -> str:
    return markdown.split("## Open questions\n", 1)[1].split("\n## ", 1)[0].strip()


def test_an_open_guess_is_an_open_question_linked_to_its_message(tmp_path):
    a = _session(tmp_path, GUESS)
    (hyp,) = a.hypotheses
    section = _section(render_postmortem(a, "md"))
    assert section == f"- “{GUESS}” [[msg {hyp.seq}]](#msg-{hyp.seq}) (main): neither confirmed nor ruled out."
    html = render_postmortem(a, "html")
    assert re.search(r"<h2>Open questions</h2>\s*<ul><li>“The root cause might be the draft&#39;s d2t table.” "
                     rf'<a href="#msg-{hyp.seq}">\[msg {hyp.seq}\]</a> \(main\)', html)


def test_a_confirmed_suspect_is_no_open_question(tmp_path):
    a = _session(tmp_path, SUSPECT, CONFIRMED)
    assert _section(render_postmortem(a, "md")) == \
        "- No hypothesis was left open: each one said was confirmed or ruled out."


def test_a_session_without_hypotheses_says_none_was_recognised(tmp_path):
    a = _session(tmp_path, "Reading the config.")
    assert _section(render_postmortem(a, "md")) == "- No hypothesis was recognised in the session."


def test_only_the_last_ten_are_listed_with_a_pointer_to_the_rest(tmp_path):
    guesses = [f"Maybe the problem is layer {i} of the draft." for i in range(13)]
    a = _session(tmp_path, *guesses)
    assert [h.status for h in a.hypotheses] == ["open"] * 13
    lines = _section(render_postmortem(a, "md")).splitlines()
    assert lines[0] == "- 3 earlier open hypotheses are in the JSON output (`hypotheses[]`, status open)."
    assert [re.search(r"layer (\d+)", line).group(1) for line in lines[1:]] == [str(i) for i in range(3, 13)]
