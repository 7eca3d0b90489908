"""postmortem: a failing command tried on one host after another is told as typed, with its hosts.

The agent looks for the launch script on gpu01, gpu02 and gpu03 in turn (`cat` fails on each):
one loop of three runs. Before, the postmortem showed the loop's template as the command,
`ssh gpuN 'cat /opt/eN/launch.sh'`, a host and a path that do not exist, in "What went wrong"
and in the action item. (Runs that differ otherwise keep the template, as test_hardening8_postmortem
asks: no one command ran that many times.)
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer

MISSING = "cat: /opt/e3/launch.sh: No such file or directory"


def _postmortem(tmp_path, commands):
    w = _Writer("46460000-0000-4000-8000-0000000000c2", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Find the EAGLE-3 launch script on the serving hosts.")
    for command, output in commands:
        w.bash(command, output, exit_code=1)
    w.bash("ls /opt", "serve", text="Not there. Let me list /opt instead.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(lp.count, lp.first_seq, lp.last_seq) for lp in a.loops] == [(3, 1, 5)]
    return render_postmortem(a, "md")


def test_a_command_tried_on_each_host_is_shown_as_typed_with_its_hosts(tmp_path):
    md = _postmortem(tmp_path, [(f"ssh {h} 'cat /opt/e3/launch.sh'", MISSING) for h in ("gpu01", "gpu02", "gpu03")])
    assert ("- The same failing command ran 3 times [[msg 1]](#msg-1)…[[msg 5]](#msg-5) (main): "
            f"`ssh gpu01 'cat /opt/e3/launch.sh'` on gpu01, gpu02, gpu03 — {MISSING}") in md
    assert ("| Read the error before re-running `ssh gpu01 'cat /opt/e3/launch.sh'` on gpu01, gpu02, gpu03: "
            f"it failed 3 times with {MISSING} |") in md
    assert "gpuN" not in md and "/opt/eN" not in md

