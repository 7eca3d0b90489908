"""`spec-debug distill` on a Claude Code session whose commands were pasted from a document: an em
dash for -- (—version), a non-breaking hyphen (nvidia‑smi), a no-break space, curly quotes. The
loader refuses each in a step's run (pasted_characters.py), so distill wrote nothing at all
("error: ... has a non-ASCII hyphen"); it must write a playbook that `playbooks validate` passes,
with the ASCII the engineer meant and a why that says what was replaced."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests.conftest import run_cli

COMMANDS = [
    "nvidia\u2011smi -L",
    "ls\u00a0-la /tmp",
    "python3 \u2014version",
    "echo \u201cEAGLE-3 check\u201d && cat /etc/hostname",
]


def _session(path: Path) -> Path:
    sid = "pasted"
    lines = [{"type": "user", "sessionId": sid, "uuid": "u0", "timestamp": "2026-03-01T10:00:00Z",
              "message": {"role": "user", "content": "The EAGLE-3 draft is slower than baseline."}}]
    for i, command in enumerate(COMMANDS):
        lines.append({"type": "assistant", "sessionId": sid, "uuid": f"a{i}", "timestamp": f"2026-03-01T10:0{i}:10Z",
                      "message": {"role": "assistant", "content": [
                          {"type": "text", "text": "Check it."},
                          {"type": "tool_use", "id": f"toolu_{i}", "name": "Bash", "input": {"command": command}}]}})
        lines.append({"type": "user", "sessionId": sid, "uuid": f"r{i}", "timestamp": f"2026-03-01T10:0{i}:20Z",
                      "message": {"role": "user", "content": [{
                          "type": "tool_result", "tool_use_id": f"toolu_{i}", "is_error": True,
                          "content": "Exit code 127\nTraceback (most recent call last):\nRuntimeError: boom"}]}})
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_distill_writes_the_ascii_meant_and_the_playbook_validates(tmp_path):
    playbook = tmp_path / "playbook.yaml"
    result = run_cli("distill", str(_session(tmp_path / "session.jsonl")), "-o", str(playbook))
    assert result.code == 0, result.stderr
    assert run_cli("playbooks", "validate", str(playbook)).code == 0
    steps = yaml.safe_load(playbook.read_text(encoding="utf-8"))["steps"]
    runs = [step["run"] for step in steps]
    assert "nvidia-smi -L" in runs and "ls -la /tmp" in runs
    for step in steps:
        assert step["run"].isascii(), step["run"]
        assert "pasted from a document" in step["why"], step
    assert any("U+2011 NON-BREAKING HYPHEN as '-'" in step["why"] for step in steps)


def test_quoted_and_commented_non_ascii_is_kept_as_typed(tmp_path):
    from spec_debug.playbook.pasted_characters import ascii_meant

    for command in ("echo 'r\u00e9sum\u00e9 \u2014 done'", "grep '\u2192' log.txt  # \u2014 arrow",
                    "echo it\u2019s", "cat <<EOF\n\u2014model-path\u00a0x\nEOF"):
        assert ascii_meant(command) == (command, [])
    assert ascii_meant("vllm serve m \u2013\u2013speculative-config x") == ("vllm serve m --speculative-config x",
                                                                            ["U+2013 EN DASH as '--'"])
