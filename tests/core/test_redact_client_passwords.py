"""Passwords that clients take on their command line (curl -u, docker login -p, redis-cli -a,
mysql -pPASS) are masked in what spec-debug writes; the same flags of other commands
(docker run -u uid:gid, python -u, git push -u) are evidence and stay."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from spec_debug.redact import MASK, redact_text

SECRET = "hunter2-Zq9"


@pytest.mark.parametrize("command", [
    f"curl -sf -u admin:{SECRET} http://10.1.230.174:30000/metrics",
    f"curl --user=alice:{SECRET} https://gpu01/v1/models",
    f"curl -H 'Accept: */*' --user alice:{SECRET} https://gpu01/v1/models",
    f"docker login -u deploy -p {SECRET} registry.example.com",
    f"redis-cli -h 10.0.0.2 -a {SECRET} ping",
    f"mysql -u root -p{SECRET} -e 'select 1'",
])
def test_client_password_is_masked(command: str) -> None:
    masked = redact_text(command)
    assert SECRET not in masked
    assert MASK in masked
    assert masked.replace(MASK, SECRET) == command  # only the password itself is replaced


@pytest.mark.parametrize("command", [
    "docker run -u 1000:1000 lmsysorg/sglang:latest nvidia-smi",
    "python -u -m sglang.launch_server --model-path /models/llama",
    "git push -u origin main",
    "curl -u $USER:$PASS http://gpu01:30000/health",  # a variable, not a secret
    "mysql -u root -p -e 'select 1'",  # mysql asks for it
    "sort -u /tmp/hosts.txt",
])
def test_same_flags_elsewhere_are_evidence(command: str) -> None:
    assert redact_text(command) == command


def test_analyze_json_masks_a_curl_password(tmp_path) -> None:
    session = tmp_path / "session.jsonl"
    command = f"curl -sf -u admin:{SECRET} http://10.1.230.174:30000/get_server_info"
    lines = [
        {"type": "user", "sessionId": "s", "uuid": "u1", "timestamp": "2026-03-02T10:00:00.000Z",
         "message": {"role": "user", "content": "Why is decoding slow on gpu01?"}},
        {"type": "assistant", "sessionId": "s", "uuid": "u2", "timestamp": "2026-03-02T10:00:03.000Z",
         "message": {"role": "assistant", "content": [
             {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": command}}]}},
        {"type": "user", "sessionId": "s", "uuid": "u3", "timestamp": "2026-03-02T10:00:06.000Z",
         "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": "toolu_1", "content": "curl: (22) 401 Unauthorized",
              "is_error": True}]}},
    ]
    session.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = subprocess.run([sys.executable, "-m", "spec_debug", "analyze", str(session), "--format", "json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert SECRET not in out.stdout
    assert [c["command"] for c in doc["commands"]] == [command.replace(SECRET, MASK)]
