"""postmortem: "What went well" says what prompted each change of approach, not only where.

Its lines read "Changed approach after [msg 45]: benchmarking → inspecting configs and
checkpoints [msg 47]": the reader had to find msg 45 in the timeline to learn that the throughput
had not improved (or which error it was). They now name it as pivots[].summary does, as distill's
step why does (test_hardening55_distill_pivot_why).
"""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem


def test_the_vocabmap_story_names_the_reading_that_turned_it():
    md = render_postmortem(analyze_path(Path(__file__).resolve().parents[1] / "data" / "transcripts_vocabmap"), "md")
    assert ("- Changed approach after throughput 88.02 tok/s not improving on 96.31, baseline 141.38 "
            "[[msg 51]](#msg-51): benchmarking → reading source code [[msg 55]](#msg-55) (main).") in md


def test_the_incident_story_names_the_error_that_turned_it():
    from tests.session.incident_story import analyzed_story
    _, a = analyzed_story()
    assert ("Changed approach after UnboundLocalError: cannot access local variable 'attn_input' where it is not "
            "associated with a value [msg 4400]: running tests → reading source code [msg 4401] (main).") \
        in postmortem_view(a)["went_well"]
