"""distill: a launch finding (SD101-SD104) seen on one host while the session's other checks ran
on another. Before: the launch_flags step kept only the findings of the playbook's host, so a
session that launched its server with `ssh gpu02 python -m sglang.launch_server ...
--speculative-num-steps 1` and read the health and the log on gpu01 gave a playbook with no
launch-flag audit and no word of gpu02. Now the step is there, its title and why name gpu02,
and the description says to add --host gpu02."""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from tests.session.incident_story import _Writer

REFUSED = "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused"
LAUNCH = ("ssh -p 2222 ubuntu@gpu02 python -m sglang.launch_server --model-path m "
          "--speculative-algorithm EAGLE3 --speculative-num-steps 1")


def _playbook(tmp_path, *calls):
    m = _Writer("9a1b0000-0000-4000-8000-00000000d029", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 accepts almost nothing.")
    for command, output, exit_code in calls:
        m.bash(command, output, exit_code=exit_code)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    load_playbook_text(dump_playbook(doc), "distilled.yaml")
    return doc


def test_a_launch_on_another_host_is_audited_and_named(tmp_path):
    doc = _playbook(tmp_path, (LAUNCH, "server started", 0),
                    ("ssh root@gpu01 'curl -sf http://localhost:30000/health'", REFUSED, 7),
                    ("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "Decode batch. accept len: 1.02", 0))
    audit = doc["steps"][0]
    assert audit["probe"] == "launch_flags"
    assert "gpu02" in audit["title"]
    assert "SD101 [msg 1] on gpu02" in audit["why"]
    assert "--host root@gpu01." in doc["description"]
    assert doc["description"].endswith("the server on gpu02: add --host ubuntu@gpu02:2222 to audit it."), doc["description"]
    assert [s["run"] for s in doc["steps"][1:]] == ["curl -sf http://localhost:30000/health",
                                                    "tail -n 20 {{ sglang_log }}"]


def test_a_launch_on_a_host_from_a_local_session_is_audited(tmp_path):
    doc = _playbook(tmp_path, (LAUNCH, "server started", 0),
                    ("curl -sf http://localhost:30000/health", REFUSED, 7),
                    ("tail -n 20 /var/log/sglang.log", "Decode batch. accept len: 1.02", 0))
    assert doc["steps"][0]["probe"] == "launch_flags"
    assert "run with --host ubuntu@gpu02:2222 to audit it." in doc["description"]


def test_a_launch_on_the_playbooks_host_names_no_other(tmp_path):
    doc = _playbook(tmp_path, (LAUNCH.replace("-p 2222 ubuntu@gpu02", "root@gpu01"), "server started", 0),
                    ("ssh root@gpu01 'curl -sf http://localhost:30000/health'", REFUSED, 7),
                    ("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "Decode batch. accept len: 1.02", 0))
    assert doc["steps"][0]["title"] == "Launch-flag audit of the serving engine"
    assert doc["description"].endswith("--host root@gpu01."), doc["description"]
