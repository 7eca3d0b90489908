"""A pivot after a sub-agent's failure links the failure, not only the report that handed it over.

A Claude Code sub-agent's launch failed at its [msg 7] (argparse, exit 2) and it reported back at
the parent's [msg 2]; the parent then checked the installed version. The postmortem said
"Changed approach after sub-agent abc123's launch_server.py: error: ... [msg 2]" and the
timeline "After sub-agent abc123's ... [msg 2], moved from ...": the failure quoted was linked to
the report, where it is not (every claim of the postmortem links its message). It says "...
[msg 7], reported at [msg 2]" now, [msg 7] with its supporting entry. The JSON's summary, and a
pivot after the agent's own failure, are as they were."""

from __future__ import annotations

import re
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.test_hardening68_spawn_version_check import _session

INVALID = ("launch_server.py: error: argument --speculative-algorithm: invalid choice: 'EAGLE3' "
           "(choose from 'EAGLE', 'NEXTN')")


def test_the_sub_agents_failure_is_linked(tmp_path: Path) -> None:
    analysis = analyze_path(_session(tmp_path, "ssh gpu01 'pip show sglang'", "Name: sglang\nVersion: 0.4.1"))
    assert [(e.agent, e.seq) for e in analysis.errors] == [("abc123", 7)]
    assert [(p.seq, p.trigger_seq) for p in analysis.pivots] == [(3, 2)]
    assert "[msg 7]" not in analysis.pivots[0].summary  # the JSON's, as it was
    (well,) = [x for x in postmortem_view(analysis)["went_well"] if x.startswith("Changed approach")]
    assert re.fullmatch(r"Changed approach after sub-agent abc123's launch_server\.py: error: .*… \[msg 7\], "
                        r"reported at \[msg 2\]: launching the server → checking installed versions "
                        r"\(sglang 0\.4\.1\) \[msg 3\] \(main\)\.", well), well
    md = render_postmortem(analysis, "md")
    assert (f"| main | pivot | After sub-agent abc123's {INVALID} [[msg 7]](#msg-7), reported at [[msg 2]](#msg-2), "
            "moved from launching the server to checking installed versions") in md, md
    assert '<a id="msg-7"></a>**[msg 7]** (abc123)' in md


def test_a_pivot_after_the_agents_own_failure_is_as_it_was() -> None:
    data = Path(__file__).resolve().parents[1] / "data" / "transcripts_hardening19"
    md = render_postmortem(analyze_path(data / "checkpoint-eagle3-accept.json"), "md")
    assert ("| main | pivot | After IndexError: index 32000 is out of bounds for dimension 0 with size 32000 "
            "[[msg 4]](#msg-4), moved from reading logs to inspecting configs and checkpoints") in md
    assert "reported at" not in md
