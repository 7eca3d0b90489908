"""An MCP server's SSH tool whose command argument is named ``cmd`` (``{host, cmd}``, the name Codex's
own ``exec_command`` gives it: TRANSCRIPTS.md section 1b). A Codex rollout's call was read with its
command and host; the same call in a Claude Code session was no command: its host, its output's
accept length and its failure were lost."""

from __future__ import annotations

from spec_debug.session import analyze_path
from tests.session.test_hardening55_mcp_ssh_login import SESSION, _claude_session

_DECODE = ("Decode batch, #running-req: 1, #token: 90, token usage: 0.01, accept len: 1.21, accept rate: 0.05, "
           "cuda graph: True, gen throughput (token/s): 45.30, #queue-req: 0")
CALLS = [
    ("mcp__ssh__exec", {"host": "ubuntu@gpu07:2200", "cmd": "tail -n 1 /var/log/sglang.log"}, _DECODE),
    ("mcp__ssh__exec", {"host": "gpu07", "cmd": ["bash", "-lc", "nvidia-smi -L"]}, "GPU 0: NVIDIA H100 80GB HBM3"),
    ("mcp__github__search_code", {"query": "accept len", "cmd": 3}, "[]"),  # a cmd that is no command
]


def test_a_claude_code_mcp_ssh_call_with_cmd_keeps_its_command_and_host(tmp_path):
    doc = analyze_path(_claude_session(tmp_path / f"{SESSION}.jsonl", CALLS)).to_json()
    assert [(c["command"], c["host"], c["user"], c["port"]) for c in doc["commands"]] == [
        ("tail -n 1 /var/log/sglang.log", "gpu07", "ubuntu", 2200), ("nvidia-smi -L", "gpu07", None, None)]
    assert [(m["name"], m["value"], m["host"]) for m in doc["metrics"] if m["name"] == "accept_length"] == [
        ("accept_length", 1.21, "gpu07")]
