"""distill: the incident's standalone test (../shared/reference/INCIDENT.md, [msg 4400]) ran a
script the session had written on the laptop and copied to the GPU host with scp; the distilled
step ran `~/ml-env/bin/python /tmp/test_drafter_standalone.py` with no word of that, and fails
with "No such file" on any other host. Its why now names the copy and says to make it first."""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from tests.session.incident_story import CORE, GPU, NAME_ERROR, PY, SSH, TEST, _Writer

SESSION = "7e1a0000-0000-4000-8000-0000000052a0"


def _session(tmp_path, *, copy: bool):
    m = _Writer(SESSION, None, datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc))
    m.prompt(f"The EAGLE-3 draft is slow on {GPU}; test it outside SGLang.")
    m.tool("Write", {"file_path": TEST, "content": "# standalone EAGLE-3 draft test\n"}, f"File created at {TEST}")
    copied = m.bash(f"scp {TEST} root@{GPU}:/tmp/", "")[0] if copy else None
    run, _ = m.bash(f"{SSH} '{PY} {TEST}'", NAME_ERROR, exit_code=1)
    m.bash(f"{SSH} 'grep -n \"def forward\\|cat\\|norm\" {CORE} | head -60'",
           "357:        hidden_states = torch.cat([input_embeds, hidden_states], dim=-1)",
           text="My code computes attn_input before the concat. Let me check the speculators forward pass:")
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    (step,) = [s for s in doc["steps"] if s["provenance"]["seq"] == run]
    return step, copied


def test_a_step_that_runs_a_script_the_session_copied_there_says_so(tmp_path):
    step, copied = _session(tmp_path, copy=True)
    assert step["run"].endswith("{{ test_drafter_standalone_py }}")
    assert step["why"].endswith(f"The session copied the script to the host first (`scp {TEST} root@{GPU}:/tmp/` "
                                f"[msg {copied}]): copy it there before running this step."), step["why"]


def test_a_script_the_host_had_gets_no_such_word(tmp_path):
    step, _ = _session(tmp_path, copy=False)
    assert "copied" not in step["why"]


def test_a_script_copied_from_the_host_to_run_here_gets_no_such_word(tmp_path):
    """`scp gpu01:/opt/tools/check_d2t.py .` then `python check_d2t.py` where the session ran: the
    copy came from the host, and the step runs where the session did."""
    m = _Writer(SESSION, None, datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc))
    m.prompt("Check the d2t of the draft on gpu01.")
    m.bash("scp gpu01:/opt/tools/check_d2t.py .", "")
    run, _ = m.bash("python check_d2t.py --draft d2t.npy", NAME_ERROR, exit_code=1)
    m.bash(f"ssh gpu01 'grep -n \"def forward\" {CORE}'", "331:    def forward(",
           text="The checker itself is broken. Let me read the speculators forward pass:")
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    (step,) = [s for s in doc["steps"] if s["provenance"]["seq"] == run]
    assert "copied" not in step["why"], step["why"]
