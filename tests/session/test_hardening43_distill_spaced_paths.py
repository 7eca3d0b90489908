"""A path with a space in its name (`"/data/My Models/eagle3/config.json"`, `/data/My\\ Models/x`)
is one var in a distilled playbook: before, the var was the word before the space (`my:
/data/My`) and the step `cat "{{ my }} Models/eagle3/config.json"`, so --var my=... read a
file nobody named. Sessions written the way Claude Code writes them (incident_story._Writer)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from tests.session.incident_story import _Writer

REFUSED = "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused"
PIVOT = "That did not work. Let me try a different approach: check the checkpoint on the host instead."


def _distilled(tmp_path: Path, command: str) -> dict:
    m = _Writer("9a1b0000-0000-4000-8000-00000000c043", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing; the server refused connections.")
    m.bash("ssh root@gpu01 'curl -sf http://localhost:30000/health'", REFUSED, exit_code=7)
    m.bash(command, '{"draft_vocab_size": 32000}', exit_code=0, text=PIVOT)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    load_playbook_text(dump_playbook(doc), "distilled.yaml")
    return doc


@pytest.mark.parametrize("command, run", [
    ("ssh root@gpu01 'cat \"/data/My Models/eagle3/config.json\"'", 'cat "{{ config_json }}"'),
    ("ssh root@gpu01 \"cat '/data/My Models/eagle3/config.json'\"", "cat '{{ config_json }}'"),
    ("ssh root@gpu01 'cat /data/My\\ Models/eagle3/config.json'", "cat {{ config_json }}"),
])
def test_a_path_with_a_space_is_one_var(tmp_path, command, run):
    doc = _distilled(tmp_path, command)
    assert [s["run"] for s in doc["steps"]][-1] == run
    assert doc["vars"]["config_json"] == "/data/My Models/eagle3/config.json"
    assert "my" not in doc["vars"]


def test_a_quoted_path_with_no_space_is_still_its_own_var(tmp_path):
    doc = _distilled(tmp_path, "ssh root@gpu01 'tail -n 50 \"/var/log/sglang/server.log\" /tmp/x.log'")
    assert doc["steps"][-1]["run"] == 'tail -n 50 "{{ server_log }}" {{ x_log }}'
    assert doc["vars"]["server_log"] == "/var/log/sglang/server.log"
