"""A session whose diagnosis was a version: the EAGLE-3 launch failed (`invalid choice: 'EAGLE3'`),
the agent read the installed SGLang (`pip show sglang`: 0.4.1) and upgraded it. A version check is
no error and its upgrade no change of approach, so `spec-debug distill` kept nothing and said
"nothing to distill"; the checks that decided the upgrade are now its steps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook

_LAUNCH = ("ssh gpu01 'python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
           "--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/e3 --port 30000'")
_FAILED = ("usage: launch_server.py [-h] ...\nlaunch_server.py: error: argument --speculative-algorithm: invalid "
           "choice: 'EAGLE3' (choose from 'EAGLE', 'NEXTN')")


def _session(path: Path, checks: list[tuple[str, str]], install: str) -> Path:
    lines: list[dict] = []

    def add(kind: str, content: list | str) -> None:
        n = len(lines) + 1
        lines.append({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n > 1 else None,
                      "isSidechain": False, "sessionId": "s", "timestamp": f"2026-11-20T10:{n:02d}:00.000Z",
                      "message": {"role": "user" if kind == "user" else "assistant", "content": content}})

    def bash(command: str, output: str, error: bool = False) -> None:
        tid = f"toolu_{len(lines)}"
        add("assistant", [{"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": command}}])
        add("user", [{"type": "tool_result", "tool_use_id": tid, "content": output, "is_error": error}])

    add("user", "The EAGLE-3 server on gpu01 does not start.")
    bash(_LAUNCH, _FAILED, error=True)                 # msg 1
    for command, output in checks:                      # msg 3, 5, ...
        bash(command, output)
    add("assistant", [{"type": "text", "text": "SGLang 0.4.1 predates EAGLE-3 support; upgrading."}])
    bash(install, "Successfully installed sglang-0.4.6")
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _steps(path: Path) -> list[dict]:
    doc = distill_playbook(analyze_path(path))
    load_playbook_text(dump_playbook(doc), "distilled.yaml")  # a playbook `playbooks validate` takes
    return doc["steps"]


def test_version_checks_before_an_upgrade_are_the_steps(tmp_path: Path) -> None:
    checks = [("ssh gpu01 'pip show sglang'", "Name: sglang\nVersion: 0.4.1"),
              ("ssh gpu01 'python -c \"import sglang; print(sglang.__version__)\"'", "0.4.1"),
              ("ssh gpu01 'nvcc --version'", "Cuda compilation tools, release 12.4, V12.4.131")]
    steps = _steps(_session(tmp_path / "s.jsonl", checks, "ssh gpu01 'pip install -U \"sglang[all]==0.4.6\"'"))
    assert [s["run"] for s in steps] == ["pip show sglang", "python -c \"import sglang; print(sglang.__version__)\""]
    assert steps[0]["why"] == ("In the session the version it showed was changed next: "
                               "`pip install -U \"sglang[all]==0.4.6\"` [msg 10].")


def test_pip_list_grep_and_uv(tmp_path: Path) -> None:
    checks = [("ssh gpu01 'pip list 2>/dev/null | grep -i -E \"sglang|flashinfer\"'", "sglang 0.4.1")]
    steps = _steps(_session(tmp_path / "s.jsonl", checks, "ssh gpu01 'uv pip install sglang==0.4.6'"))
    assert [s["run"] for s in steps] == ["pip list 2>/dev/null | grep -i -E \"sglang|flashinfer\""]


def test_a_check_of_another_package_or_host_decided_nothing(tmp_path: Path) -> None:
    for checks in ([("ssh gpu01 'pip show vllm'", "Name: vllm\nVersion: 0.6.0")],
                   [("ssh gpu02 'pip show sglang'", "Name: sglang\nVersion: 0.4.1")]):
        with pytest.raises(UsageError, match="nothing to distill"):
            distill_playbook(analyze_path(_session(tmp_path / "s.jsonl", checks,
                                                   "ssh gpu01 'pip install -U sglang==0.4.6'")))
