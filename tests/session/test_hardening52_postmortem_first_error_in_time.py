"""postmortem: Detection's "First error" was the first of the session's errors in seq order; a
Claude Code sub-agent's file is numbered after its parent's, so the OOM a sub-agent hit at 09:20
lost to the parent's crash at 17:31, while the timeline (in time order) showed the OOM first.
The first error is now the earliest one in time."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import NAME_ERROR, OOM, SSH, _write_agent, _Writer

SESSION = "7e1a0000-0000-4000-8000-0000000052e1"


def test_a_sub_agents_earlier_error_is_the_first_error(tmp_path):
    project = tmp_path / "-root-work"
    sub = project / SESSION / "subagents"
    sub.mkdir(parents=True)
    start = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
    m = _Writer(SESSION, None, start)
    m.prompt("The EAGLE-3 draft is slower than no speculation on 10.1.230.174. Find out why.")
    m.spawn("b2layers", "toolu_spawn_b2layers", "Dump the hidden states", "Dump layers 3, 31, 59.",
            "The dump ran out of GPU memory.", trunk=True)
    m.clock += timedelta(hours=8)  # the parent works on for hours, then its test crashes
    _, crash = m.bash(f"{SSH} '~/ml-env/bin/python /tmp/test_drafter_standalone.py'", NAME_ERROR, exit_code=1)
    (project / f"{SESSION}.jsonl").write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    b2 = _Writer(SESSION, "b2layers", start + timedelta(minutes=20))
    b2.prompt("Dump layers 3, 31, 59.")
    b2.bash(f"{SSH} \"~/ml-env/bin/python /root/dump_hidden.py --layers 3,31,59\"", OOM, exit_code=1)
    b2.say("The dump ran out of GPU memory.")
    _write_agent(sub, "b2layers", b2, "toolu_spawn_b2layers", "Dump the hidden states")

    analysis = analyze_path(project)
    oom = next(e for e in analysis.errors if "OutOfMemoryError" in (e.exception or ""))
    assert oom.seq > crash and oom.agent == "b2layers"  # numbered after the parent, though earlier in time
    detection = postmortem_view(analysis)["detection"]
    first = next(line for line in detection if line.startswith("First error:"))
    # before: "First error: NameError: name 'attn_input' is not defined [msg 4] (main)."
    assert first.startswith("First error: torch.OutOfMemoryError: CUDA out of memory") and \
        first.endswith(f"[msg {oom.seq}] (b2layers)."), first
