"""distill: `timeout 60 ssh gpu01 'python /opt/check_draft.py'` bounded the command the session
ran on gpu01 by 60 s, around the ssh hop; the step runs the inner command on the host, so the
limit went with the hop and the step had no timeout (it hung in the session). The step now takes
the session's limit."""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from tests.session.incident_story import _Writer

SESSION = "7e1a0000-0000-4000-8000-0000000052b0"


def test_a_timeout_around_the_ssh_hop_is_the_steps_timeout(tmp_path):
    m = _Writer(SESSION, None, datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc))
    m.prompt("The EAGLE-3 draft on gpu01 accepts almost nothing.")
    run, _ = m.bash("timeout 60 ssh gpu01 'python /opt/check_draft.py --layers'", "", exit_code=124)
    m.bash("ssh gpu01 'grep -n layers_to_capture /opt/sglang/python/sglang/srt/models/llama.py'",
           "512:        self.model.layers_to_capture = [val + 1 for val in layer_ids]",
           text="The check hung; I'll read the capture code instead.")
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    (step,) = [s for s in doc["steps"] if s["provenance"]["seq"] == run]
    assert step["run"] == "python {{ check_draft_py }} --layers"
    assert step.get("timeout") == 60, step
