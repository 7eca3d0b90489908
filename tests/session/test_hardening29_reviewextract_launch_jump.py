"""distill: the server found on another host than the playbook's was reached through a jump host
(`ssh -J admin@bastion gpu02 python -m sglang.launch_server ...`). Round 29's description said
"add --host gpu02 to audit it" and gave the ProxyJump only for the playbook's host: --host gpu02
does not reach gpu02 from where the session ran. Now it names gpu02's jump host as well."""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from tests.session.incident_story import _Writer

LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --speculative-num-steps 1"
TAIL = ("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "Decode batch. accept len: 1.02", 0)
REFUSED = "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused"


def _description(tmp_path, *calls):
    m = _Writer("9a1b0000-0000-4000-8000-00000000d130", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 accepts almost nothing.")
    for command, output, exit_code in calls:
        m.bash(command, output, exit_code=exit_code)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    load_playbook_text(dump_playbook(doc), "distilled.yaml")
    return doc["description"]


def test_the_launch_host_s_jump_host_is_named(tmp_path):
    description = _description(tmp_path, (f"ssh -J admin@bastion gpu02 {LAUNCH}", "started", 0),
                               ("ssh root@gpu01 'curl -sf http://localhost:30000/health'", REFUSED, 7), TAIL)
    assert description.endswith("add --host gpu02 to audit it. The session reached gpu02 through the jump "
                                "host admin@bastion: give gpu02 `ProxyJump admin@bastion` in ~/.ssh/config."), description


def test_a_launch_host_reached_directly_names_no_jump(tmp_path):
    description = _description(tmp_path, (f"ssh ubuntu@gpu02 {LAUNCH}", "started", 0),
                               ("ssh root@gpu01 'curl -sf http://localhost:30000/health'", REFUSED, 7), TAIL)
    assert description.endswith("add --host ubuntu@gpu02 to audit it."), description
