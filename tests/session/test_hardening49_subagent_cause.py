"""analyze: a root cause a sub-agent reports is settled by what its parent finds next.

A sub-agent sent to read the drafter's files ends with its report: "Root cause: the export
wrote d2t as absolute target ids". Nothing was open in the sub-agent, so the statement is its
claim, the hypothesis that what comes next confirms (as in one agent's own words). What comes
next is in the parent: it applies the fix and says "That fixed it". That outcome settled only
the parent's own hypotheses, so the sub-agent's cause stayed open to the end of the session,
a confirmed root cause shown as an unsettled guess. Now the parent's outcome after the report
(one on the cause's topic, a bare "That fixed it", or the one that settled the parent's own
suspect on that topic) settles the sub-agent's cause too. Nothing in the parent said about it:
it stays open.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _write_agent, _Writer

SESSION = "49a10000-0000-4000-8000-0000000049a1"
START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
CAUSE = "Root cause: the export wrote the draft's d2t as absolute target ids instead of offsets."
CONFIG = ("ssh gpu01 'cat /models/e3/config.json'", '{"draft_vocab_size": 32000}')


def _analyze(tmp_path, before: list[str], after: list[str], report: str = CAUSE):
    trunk = _Writer(SESSION, None, START)
    trunk.prompt("EAGLE-3 accept length is about 1.0 on gpu01.")
    for text in before:
        trunk.bash(*CONFIG, text=text)
    trunk.spawn("e5vocab", "toolu_spawn_e5", "Check the vocab map", "Read the draft's d2t on gpu01.",
                report, trunk=True)
    seqs = [trunk.bash(*CONFIG, text=text)[0] for text in after]
    (tmp_path / f"{SESSION}.jsonl").write_text("\n".join(trunk.lines) + "\n", encoding="utf-8")
    sub = tmp_path / SESSION / "subagents"
    sub.mkdir(parents=True)
    agent = _Writer(SESSION, "e5vocab", START + timedelta(minutes=1))
    agent.prompt("Read the draft's d2t on gpu01.")
    agent.bash("ssh gpu01 'python -c \"import torch; print(torch.load(\\\"/models/e3/d2t.pt\\\")[:4])\"'",
               "tensor([ 0, 1, 2, 151000])")
    agent.say(report)
    _write_agent(sub, "e5vocab", agent, "toolu_spawn_e5", "Check the vocab map")
    return analyze_path(tmp_path / f"{SESSION}.jsonl"), seqs


def _states(a):
    return [(h.agent, h.text, h.status, h.outcome_seq) for h in a.hypotheses]


def test_a_bare_that_fixed_it_after_the_report_confirms_the_reported_cause(tmp_path):
    a, (fixed,) = _analyze(tmp_path, [], ["That fixed it: accept length is 3.2 now."])
    assert _states(a) == [("e5vocab", CAUSE, "confirmed", fixed)]


def test_the_parents_confirmed_suspect_on_the_topic_confirms_it(tmp_path):
    suspect = "I suspect the vocab map (d2t/t2d) of the new draft."
    said = "Confirmed: with d2t rewritten as offsets the accept length is back to 3.2."
    a, (fixed,) = _analyze(tmp_path, [suspect], [said])
    assert sorted(_states(a)) == sorted([("main", suspect, "confirmed", fixed),
                                         ("e5vocab", CAUSE, "confirmed", fixed)])


def test_an_outcome_on_another_topic_leaves_it_open(tmp_path):
    a, _ = _analyze(tmp_path, [], ["Confirmed: the CUDA graph capture was off on gpu01."])
    assert ("e5vocab", CAUSE, "open", None) in _states(a)


def test_a_parent_that_says_nothing_of_it_leaves_it_open(tmp_path):
    a, _ = _analyze(tmp_path, [], ["Reading the server log next."])
    assert _states(a) == [("e5vocab", CAUSE, "open", None)]


def test_the_parent_ruling_it_out_rules_it_out(tmp_path):
    said = "Ruled out: d2t holds offsets after all, the absolute ids were the printout's."
    a, (seq,) = _analyze(tmp_path, [], [said])
    assert _states(a) == [("e5vocab", CAUSE, "ruled_out", seq)]


def test_an_outcome_before_the_report_settles_nothing_of_it(tmp_path):
    a, _ = _analyze(tmp_path, ["That fixed it: accept length is 3.2 now."], [])
    assert _states(a) == [("e5vocab", CAUSE, "open", None)]
