"""A no-speculation caption names the log under it, not the words after that log.

Found by running `analyze` before and after f5a6bee (caption lines cut a text into runs) on an
issue-style report: "without eagle:" over a server log, then a sentence about the EAGLE3 run.
The sentence's reading was taken as the run without speculation: a baseline invented from the
EAGLE3 run, and the slowdown against the log's 97.55 tok/s no SD501.
"""

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

SESSION = "7e1a0000-0000-4000-8000-00000000bd1a"
# the SGLang Decode batch lines of sgl-project/sglang#6949's "without eagle:" log
DECODE = ("[2025-06-07 21:25:14 TP0] Decode batch. #running-req: 1, #token: 9322, token usage: 0.00, "
          "gen throughput (token/s): {}, #queue-req: 0\n")
REPORT = ("EAGLE3 makes decoding slower on one H100.\n\nwithout eagle:\n```\n" + DECODE.format("97.52")
          + DECODE.format("97.58") + "```\nThen I enabled EAGLE3 and got 60 tok/s.\n")


def _analyze(tmp_path):
    w = _Writer(SESSION, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt(REPORT)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def test_the_words_after_a_captioned_log_are_not_the_run_without_speculation(tmp_path):
    a = _analyze(tmp_path)
    assert [(m.name, m.value) for m in a.metrics if m.name.endswith("throughput")] == [
        ("baseline_throughput", 97.55), ("throughput", 60.0)]
    evidence = [line for f in a.findings if f.code == "SD501" for line in f.evidence]
    assert evidence == ["[msg 0] 60 tok/s measured vs 97.55 tok/s baseline"]
