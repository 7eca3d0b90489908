"""Review of 0d17c01d (distill adds the launch_flags probe step for SD101-SD104): a session whose
only lesson is a launch flag, the launch sent with `ssh -p 2222 -J admin@bastion ubuntu@gpu01`,
gave a playbook whose description said "--host gpu01": the user, the port and the jump host of
the session's ssh were taken only from the chosen diagnostic commands, and there were none. The
run went to gpu01:22 as the local user, not to the server the session audited."""

from __future__ import annotations

import json

import yaml

from spec_debug.session.analysis import analyze_path
from spec_debug.session.distill import distill_playbook

LAUNCH = ("ssh -p 2222 -J admin@bastion ubuntu@gpu01 python -m sglang.launch_server --model-path m "
          "--speculative-algorithm EAGLE3 --speculative-num-steps 1")


def _session(tmp_path, command):
    lines = [{"type": "user", "uuid": "u1", "timestamp": "2026-01-01T00:00:00Z",
              "message": {"role": "user", "content": "why is the drafter slower?"}},
             {"type": "assistant", "uuid": "u2", "timestamp": "2026-01-01T00:00:01Z",
              "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                                                            "input": {"command": command}}]}},
             {"type": "user", "uuid": "u3", "timestamp": "2026-01-01T00:00:02Z",
              "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                                       "content": "server started"}]}}]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_launch_only_playbook_names_the_user_port_and_jump_the_session_used(tmp_path):
    doc = distill_playbook(analyze_path(_session(tmp_path, LAUNCH)))
    assert [s["probe"] for s in doc["steps"]] == ["launch_flags"]
    assert "--host ubuntu@gpu01:2222." in doc["description"], doc["description"]
    assert "jump host admin@bastion" in doc["description"]
    yaml.safe_dump(doc)


def test_a_plain_ssh_launch_still_names_the_host_alone(tmp_path):
    command = LAUNCH.replace("-p 2222 -J admin@bastion ubuntu@gpu01", "gpu01")
    doc = distill_playbook(analyze_path(_session(tmp_path, command)))
    assert doc["description"].endswith("--host gpu01.")
