"""`cd /opt/vllm` in one command, `pip install -e .` in the next: the shell kept the folder
(Claude Code writes it as each line's ``cwd``), yet the install was read from its own words
alone and named nothing. The postmortem's Resolution left it out of the change the rise
followed, and a `pip show vllm` before it decided no upgrade (distill: "nothing to distill").
The folder the command ran in (CommandRecord.cwd) now names the project, as a `cd` in the
same command did."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from spec_debug.session.postmortem import postmortem_view
from spec_debug.session.version_checks import installed_packages

_BENCH = ("============ Serving Benchmark Result ============\nSuccessful requests:                     100\n"
          "Output token throughput (tok/s):         {}\n==================================================")
_LAUNCH = ("nohup vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
           "'{\"method\": \"eagle3\", \"model\": \"/models/e3\", \"num_speculative_tokens\": 3}' > /tmp/v.log 2>&1 &")
_BENCH_CMD = "vllm bench serve --model meta-llama/Llama-3.1-8B-Instruct --num-prompts 100"


def _session(path: Path, steps: list[tuple[str, str, str]]) -> Path:
    """``steps``: (command, output, the cwd its line was written with)."""
    lines: list[dict] = []

    def add(kind: str, content: list | str, cwd: str) -> None:
        n = len(lines) + 1
        lines.append({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n > 1 else None, "cwd": cwd,
                      "isSidechain": False, "sessionId": "s", "timestamp": f"2026-11-20T10:{n:02d}:00.000Z",
                      "message": {"role": "user" if kind == "user" else "assistant", "content": content}})

    add("user", "EAGLE-3 is slow here", "/root")
    for command, output, cwd in steps:
        tid = f"toolu_{len(lines)}"
        add("assistant", [{"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": command}}], cwd)
        add("user", [{"type": "tool_result", "tool_use_id": tid, "content": output, "is_error": False}], cwd)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_the_folder_the_install_ran_in_names_the_project() -> None:
    assert installed_packages("pip install -e .") == set()
    assert installed_packages("pip install -e .", "/opt/vllm") == {"vllm"}
    assert installed_packages('pip install -e "python[all]"', "/root/sglang") == {"sglang"}
    assert installed_packages("pip install -e ..", "/root/vllm/build") == {"vllm"}
    assert installed_packages("cd /src/sglang && pip install -e .", "/root/vllm") == {"sglang"}  # its own cd wins
    assert installed_packages("pip install -e /opt/vllm", "/root/sglang") == {"vllm"}
    assert installed_packages("pip install sglang==0.4.6", "/root/vllm") == {"sglang"}


def test_an_install_in_the_folder_an_earlier_cd_left_is_the_change(tmp_path: Path) -> None:
    path = _session(tmp_path / "s.jsonl", [
        (_BENCH_CMD, _BENCH.format("60.5"), "/root"),
        ("cd /opt/vllm && git pull", "Already up to date.", "/root"),
        ("VLLM_USE_PRECOMPILED=1 pip install -e .", "Successfully installed vllm-0.10.1", "/opt/vllm"),
        (_LAUNCH, "", "/opt/vllm"),
        (_BENCH_CMD, _BENCH.format("120.3"), "/opt/vllm")])
    assert postmortem_view(analyze_path(path))["resolution"] == [
        "Throughput rose from 60.5 to 120.3 tok/s [msg 10] after `VLLM_USE_PRECOMPILED=1 pip install -e .` [msg 5], "
        "relaunching the server with `\"num_speculative_tokens\": 3` [msg 7]."]


def test_a_version_check_before_it_decided_the_install(tmp_path: Path) -> None:
    path = _session(tmp_path / "s.jsonl", [
        ("pip show vllm", "Name: vllm\nVersion: 0.6.0", "/root"),
        ("cd /opt/vllm && git pull", "Updating 1a2b..3c4d", "/root"),
        ("pip install -e .", "Successfully installed vllm-0.10.1", "/opt/vllm")])
    assert [s["run"] for s in distill_playbook(analyze_path(path))["steps"]] == ["pip show vllm"]
