"""analyze: the served model's throughput settles no guess about the agent's own test code.

In the incident story the agent, its standalone draft test crashing, says "The issue is that my
code computes attn_input (the normed version) before the concat", fixes the test, then patches
SGLang's hidden-state capture (`git apply`), relaunches and says "That fixed it: 96.8 tok/s". The
postmortem listed the guess about its own test script as confirmed by the serving throughput,
under What went well: a code path the server never runs. A throughput-only outcome now settles no
guess about the agent's own code (my code, script, test, repro); an outcome about the test
("That fixed it: the standalone test passes now") and a throughput after a guess about the
engine still settle.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.reasoning import own_code
from tests.session.incident_story import _Writer

GPU = "ssh root@10.1.230.174"
BENCH = (f"{GPU} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'",
         "Output token throughput (tok/s):         96.80\nAccept length: 3.41")
OWN = "The issue is that my code computes attn_input (the normed version) before the concat."
FIXED = "That fixed it: 96.8 tok/s against the 90 tok/s baseline."


def _session(tmp_path, guess: str, said: str):
    w = _Writer("59590000-0000-4000-8000-0000000000d1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 makes serving slower: 54.8 tok/s against a 90 tok/s baseline on 10.1.230.174.")
    w.bash(f"{GPU} '~/ml-env/bin/python /tmp/test_drafter_standalone.py'",
           "UnboundLocalError: cannot access local variable 'attn_input' where it is not associated with a value",
           exit_code=1, text=guess)
    w.bash(f"{GPU} 'cd /root/sglang && git apply /root/patches/eagle3_embed_capture.patch'", "")
    w.bash(*BENCH)
    w.say(said)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


@pytest.mark.parametrize("guess", [
    OWN,
    "I suspect my test script feeds the hidden states in the wrong order.",
    "Perhaps the repro in my standalone harness normalizes twice.",
])
def test_a_throughput_settles_no_guess_about_the_agents_code(tmp_path, guess):
    a = _session(tmp_path, guess, FIXED)
    assert [(h.text, h.status) for h in a.hypotheses] == [(guess, "open")]


def test_an_outcome_about_the_test_still_settles_it(tmp_path):
    a = _session(tmp_path, OWN, "That fixed it: my code passes attn_input after the concat now and the test runs.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(OWN, "confirmed")]


def test_a_throughput_still_settles_a_guess_about_the_engine(tmp_path):
    guess = "I suspect SGLang captures the wrong hidden-state layers for the draft."
    a = _session(tmp_path, guess, FIXED)
    assert [(h.text, h.status) for h in a.hypotheses] == [(guess, "confirmed")]


def test_the_newest_other_guess_is_settled_instead(tmp_path):
    engine = "I suspect the fc weights were exported transposed."
    w = _session(tmp_path, engine + " " + OWN, FIXED)
    assert [(h.text, h.status) for h in w.hypotheses] == [(engine, "confirmed"), (OWN, "open")]


def test_own_code_words():
    assert own_code(OWN)
    assert not own_code("I suspect the draft's code path in SGLang skips the fc layer.")
