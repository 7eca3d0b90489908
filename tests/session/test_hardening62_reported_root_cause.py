"""postmortem: a root cause the user's report alone states is labelled so.

A prompt that says "d2t holds absolute target ids, not offsets" gives SD302, and the Markdown and
HTML postmortems listed it under "Root causes (as found)" exactly as a finding the session's own
output or the agent showed. A finding whose every message is a main-agent prompt now says
"(error; reported in the prompt, not observed)"; one the agent also states (or states alone) does
not. The JSON findings[] contract is untouched (the label is the postmortem view's).
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer

SAID = "d2t holds absolute target ids, not offsets: it equals t2d.nonzero()."


def _analysis(tmp_path, prompt: str, said: str):
    w = _Writer("62620000-0000-4000-8000-0000000000f1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt(prompt)
    w.bash("ssh gpu01 nvidia-smi", "NVIDIA-SMI 550.54.15")
    w.say(said)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def _headings(a):
    return ([line for line in render_postmortem(a, "md").splitlines() if line.startswith("### SD")],
            [line for line in render_postmortem(a, "html").splitlines() if line.startswith('<h3 class="error">SD')])


def test_a_root_cause_only_reported_is_labelled(tmp_path):
    a = _analysis(tmp_path, "EAGLE-3 accept length is about 1.0 on gpu01. " + SAID, "Let me look.")
    assert [(f.code, f.seq, f.evidence_seqs) for f in a.findings] == [("SD302", 0, [0])]
    assert _headings(a) == (
        ["### SD302 · d2t is not an offset table (error; reported in the prompt, not observed) [[msg 0]](#msg-0)"],
        ['<h3 class="error">SD302 · d2t is not an offset table (error; reported in the prompt, not observed) '
         '<a href="#msg-0">[msg 0]</a></h3>'])


@pytest.mark.parametrize(("prompt", "seq"), [
    ("EAGLE-3 accept length is about 1.0 on gpu01.", 3),            # the agent's own finding
    ("EAGLE-3 accept length is about 1.0 on gpu01. " + SAID, 0),    # reported, and the agent found it too
])
def test_a_root_cause_the_session_states_is_not(tmp_path, prompt, seq):
    a = _analysis(tmp_path, prompt, SAID)
    assert _headings(a) == (
        [f"### SD302 · d2t is not an offset table (error) [[msg {seq}]](#msg-{seq})"],
        [f'<h3 class="error">SD302 · d2t is not an offset table (error) <a href="#msg-{seq}">[msg {seq}]</a></h3>'])
