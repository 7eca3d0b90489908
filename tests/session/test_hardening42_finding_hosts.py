"""One finding record a code per session: the launch capped at one draft step that the session
ran on gpu01, then on gpu02, was one SD101 that named gpu01 alone. The JSON said nothing of
gpu02, and the playbook distilled from the session audited gpu01 only ("Run against the host
the session used, e.g. --host gpu01"), though gpu02's server was as wrong."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.commands import analysis_json
from spec_debug.session.distill import distill_playbook, dump_playbook

LAUNCH = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 1 "
          "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2 --port 30000")
SESSION = "5e55a0a1-0000-4000-8000-00000000d101"


def _line(n: int, kind: str, message: dict, minute: int) -> str:
    return json.dumps({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None,
                       "sessionId": SESSION, "timestamp": f"2026-12-01T10:{minute:02d}:00.000Z", "cwd": "/home/me",
                       "version": "2.1.3", "isSidechain": False, "userType": "external", "message": message})


def _session(tmp_path: Path) -> Path:
    lines = [_line(0, "user", {"role": "user", "content": "EAGLE-3 is slow on gpu01 and gpu02, why?"}, 0)]
    for i, host in enumerate(["gpu01", "gpu02"]):
        lines.append(_line(len(lines), "assistant", {
            "id": f"msg_{i}", "type": "message", "role": "assistant", "model": "claude-opus-4-5",
            "content": [{"type": "tool_use", "id": f"toolu_{i}", "name": "Bash",
                         "input": {"command": f"ssh {host} '{LAUNCH}'", "description": f"Relaunch on {host}"}}]},
            2 * i + 1))
        lines.append(_line(len(lines), "user", {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": "The server is fired up and ready to roll!",
             "is_error": False}]}, 2 * i + 2))
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_finding_seen_on_two_hosts_names_both(tmp_path: Path) -> None:
    doc = json.loads(analysis_json(analyze_path(_session(tmp_path))))
    [finding] = [f for f in doc["findings"] if f["code"] == "SD101"]
    assert finding["host"] == "gpu01"  # the first, as before
    assert finding["hosts"] == ["gpu01", "gpu02"]
    assert finding["evidence_seqs"] == [1, 3]


def test_the_distilled_playbook_audits_the_second_host_too(tmp_path: Path) -> None:
    doc = distill_playbook(analyze_path(_session(tmp_path)))
    load_playbook_text(dump_playbook(doc), "playbook.yaml")  # a playbook the loader takes
    assert "--host gpu01" in doc["description"]
    assert "also those of the server on gpu02: add --host gpu02 to audit it" in doc["description"]
    [audit] = [s for s in doc["steps"] if s["probe"] == "launch_flags"]
    assert audit["title"] == "Launch-flag audit of the serving engine (found on gpu02 too)"
    assert "SD101 [msg 1] on gpu01, gpu02:" in audit["why"]
