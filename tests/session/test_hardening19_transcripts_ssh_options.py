"""distill reads ssh's words as the analyzer does: OpenSSH takes options after the destination
too (`ssh gpu01 -p 2222 'docker exec ...'`; openssh-portable ssh.c runs getopt again after the
host, and `ssh -G gpu01 -p 2222` prints `port 2222`), so the step run on the host is the remote
command alone, never `-p 2222 docker exec ...`."""

from __future__ import annotations

import shutil
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from spec_debug.session.shell import parse_target
from spec_debug.session.unattended import host_command, interactive
from tests.session.incident_story import _Writer

REFUSED = "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused"


@pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client")
def test_openssh_itself_reads_options_after_the_destination():
    """The behaviour both parsers encode, asked of the real client (-G prints the config, connects nowhere)."""
    out = subprocess.run(["ssh", "-G", "gpu01", "-p", "2222", "-l", "bob"], capture_output=True, text=True,
                         timeout=20).stdout
    conf = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    assert (conf["hostname"], conf["port"], conf["user"]) == ("gpu01", "2222", "bob")


def test_the_host_command_leaves_ssh_its_options():
    """Before: `-p 2222 docker exec sglang nvidia-smi` was the host's command."""
    line = "ssh root@gpu01 -p 2222 -o StrictHostKeyChecking=no 'docker exec sglang nvidia-smi'"
    assert host_command(line, "gpu01") == "docker exec sglang nvidia-smi"
    assert parse_target(line).port == 2222
    # the same line to the analyzer: the container and the command inside it
    assert (parse_target(line).container, parse_target(line).inner) == ("docker:sglang", "nvidia-smi")


def test_a_login_with_options_after_the_host_waits_for_a_terminal():
    """Before: `ssh gpu01 -p 2222` had the remote command `-p 2222` and was kept as a step."""
    assert interactive("ssh gpu01 -p 2222 -A") is not None
    assert interactive("ssh gpu01 -p 2222 uptime") is None


def test_a_distilled_container_step_runs_only_the_containers_command(tmp_path: Path):
    m = _Writer("9a1b0000-0000-4000-8000-00000000d019", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing; the server runs in the sglang container.")
    m.bash("ssh root@gpu01 -p 2222 'curl -sf http://localhost:30000/health'", REFUSED, exit_code=7)
    m.bash("ssh root@gpu01 -p 2222 'docker exec -it sglang cat /sgl-workspace/eagle3/config.json'",
           '{"draft_vocab_size": 32000}', exit_code=0)
    m.bash("ssh root@gpu01 -p 2222 nvidia-smi -L", "GPU 0: NVIDIA H100", exit_code=0)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    load_playbook_text(dump_playbook(doc), "distilled.yaml")
    runs = [s["run"] for s in doc["steps"]]
    assert "docker exec -i sglang cat {{ config_json }}" in runs, runs
    assert not any(r.lstrip("'\"").startswith("-p") or "2222" in r for r in runs), runs
