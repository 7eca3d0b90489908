"""distill: the check an agent had just read when it named the fault in words is a step.

A sub-agent prints the draft's d2t beside t2d.nonzero() and writes "d2t holds absolute target
ids, not offsets" (SD302). The finding was the sentence's alone, so distill kept no step for
the check that showed it, and the playbook of a vocab-map incident could not find the vocab
map. The command whose output the agent read last, with only its own words since, is now
recorded with the finding (``read_seqs``) and distilled, with the reason "its output led to".
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from tests.session.incident_story import _Writer

CHECK = ("ssh gpu01 '~/venv/bin/python -c \"from safetensors.torch import load_file; "
         "s = load_file(\\\"/models/e3/model.safetensors\\\"); print(s[\\\"d2t\\\"][:6].tolist(), "
         "s[\\\"t2d\\\"].nonzero().squeeze(1)[:6].tolist())\"'")
SAID = "d2t holds absolute target ids, not offsets: it equals t2d.nonzero()."


def _analysis(tmp_path, *, prompt_between: bool = False):
    w = _Writer("48480000-0000-4000-8000-0000000000a1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 accept length is about 1.0 on gpu01.")
    _, result = w.bash(CHECK, "[11, 13, 15, 220, 256, 264] [11, 13, 15, 220, 256, 264]")
    if prompt_between:
        w.prompt("I think d2t is fine, it was like that before. Look at the layers.")
    w.say(SAID)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path), result


def test_the_check_before_the_words_is_distilled(tmp_path):
    a, result = _analysis(tmp_path)
    [finding] = [f for f in a.findings if f.code == "SD302"]
    assert finding.read_seqs == [result]
    [step, check] = distill_playbook(a)["steps"]
    assert check["probe"] == "vocab_maps"  # spec-debug's own check of it (test_hardening51_distill_builtin_checks)
    assert "load_file" in step["run"] and "d2t" in step["run"]
    assert "its output led to SD302 (d2t is not an offset table)" in step["why"]


def test_a_prompt_between_breaks_the_link(tmp_path):
    # the person's words came after the output: the agent's sentence answers them, not the check
    a, _ = _analysis(tmp_path, prompt_between=True)
    assert [f.read_seqs for f in a.findings if f.code == "SD302"] == [[]]


def test_the_closing_summary_names_no_check(tmp_path):
    # the summary after the last command repeats the finding: that command showed nothing
    w = _Writer("48480000-0000-4000-8000-0000000000a2", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 accept length is about 1.0 on gpu01.")
    _, result = w.bash(CHECK, "[11, 13, 15, 220, 256, 264] [11, 13, 15, 220, 256, 264]")
    w.say(SAID)
    w.bash("ssh gpu01 'curl -sf localhost:30000/health'", "")
    w.say("Summary: " + SAID)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert [f.read_seqs for f in analyze_path(path).findings if f.code == "SD302"] == [[result]]
