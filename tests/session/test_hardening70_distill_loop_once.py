"""distill: the runs of one failing loop are one step.

An agent ran its d2t dump four times, a layer number changed each time, and each run crashed
alike (KeyError: 'd2t'); the analysis makes them one loop ("The same failing command ran 4
times"), yet the playbook held four steps, `dump_d2t.py --layer 0` … `--layer 3`, each
crashing as the others did. The playbook now runs it once: the run whose result turned the
session to another approach (its why says so), else the first.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from tests.session.incident_story import _Writer

START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
CRASH = ("Traceback (most recent call last):\n"
         '  File "/root/dump_d2t.py", line 9, in <module>\n'
         '    d2t = state["d2t"]\n'
         "KeyError: 'd2t'\n")
LISTED = "['fc.weight', 'midlayer.self_attn.q_proj.weight', 'lm_head.weight', 't2d']\n"


def _playbook(tmp_path: Path, layers: tuple[int, ...], then_tail: bool = False) -> tuple[dict, list[int]]:
    m = _Writer("8a1b0000-0000-4000-8000-0000000070b1", None, START)
    m.prompt("The EAGLE-3 draft on gpu01 accepts almost nothing. Please find out why.")
    runs = []
    for layer in layers:
        runs.append(m.bash(f"ssh gpu01 'python3 /root/dump_d2t.py --layer {layer}'", CRASH, exit_code=1)[0])
        if then_tail:
            m.bash("ssh gpu01 'tail -n 3 /tmp/dump_d2t.log'", "loading /models/eagle3-draft\n")
    m.say("The dump keeps failing on the same key. Let me list the tensors the checkpoint holds instead.")
    m.bash("ssh gpu01 'python3 -c \"from safetensors import safe_open; "
           "print(list(safe_open(\\\"/models/eagle3-draft/model.safetensors\\\", \\\"pt\\\").keys()))\"'", LISTED)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return distill_playbook(analyze_path(path)), runs


def test_four_runs_of_one_failing_dump_are_one_step(tmp_path):
    doc, runs = _playbook(tmp_path, (0, 1, 2, 3))
    dumps = [s for s in doc["steps"] if "dump_d2t" in s.get("run", "")]
    assert [(s["run"], s["provenance"]["seq"]) for s in dumps] == [
        ("python3 {{ dump_d2t_py }} --layer 3", runs[3])]
    assert "prompted a change of approach" in dumps[0]["why"]


def test_without_a_change_of_approach_the_first_run_is_kept(tmp_path):
    """Each crash followed by a look at the log: the first crash turned the session to the log
    (a change of approach), so the first run is the step; the others are not repeated."""
    doc, runs = _playbook(tmp_path, (0, 1, 2), then_tail=True)
    dumps = [s for s in doc["steps"] if "dump_d2t.py" in s.get("run", "") or "dump_d2t_py" in s.get("run", "")]
    assert [(s["run"], s["provenance"]["seq"]) for s in dumps] == [
        ("python3 {{ dump_d2t_py }} --layer 0", runs[0])]
