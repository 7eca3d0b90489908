"""An engine installed from its source is an install of the engine. `pip install -e "python[all]"`
in an SGLang checkout was read as an install of a package named "python", and `cd /opt/vllm && pip
install -e .` as an install of nothing: a `pip show sglang` before the first decided nothing
(distill: "nothing to distill"), and the postmortem's Resolution left the second out of the change
that raised the throughput."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from spec_debug.session.version_checks import installed_packages
from tests.session.test_hardening65_distill_version_checks import _session, _steps

_BENCH = ("============ Serving Benchmark Result ============\nSuccessful requests:                     100\n"
          "Output token throughput (tok/s):         {}\n==================================================")


def test_installs_from_a_folder_or_repository_name_the_project() -> None:
    cases = {
        'cd /opt/sglang && git checkout v0.4.6 && pip install -e "python[all]"': {"sglang"},
        'cd ~/sglang/python && pip install -e ".[all]"': {"sglang"},
        "cd /opt/sglang && pip install --no-build-isolation --editable ./python": {"sglang"},
        "pip install -e /opt/sglang/python": {"sglang"},
        "pip install --editable=/src/vllm": {"vllm"},
        "cd vllm && VLLM_USE_PRECOMPILED=1 pip install -e .": {"vllm"},
        "cd vllm/build && pip install -e ..": {"vllm"},
        "pip install git+https://github.com/sgl-project/sglang.git#subdirectory=python": {"sglang"},
        "uv pip install -e git+https://github.com/vllm-project/vllm@v0.9.0#egg=vllm": {"vllm"},
        'pip install "sglang[all]==0.4.6" ./flashinfer_python-0.2.0-cp38-abi3-linux_x86_64.whl':
            {"sglang", "flashinfer-python"},
        "pip install /tmp/vllm-0.9.0.tar.gz": {"vllm"},
        "pip install python-dotenv": {"python-dotenv"},  # a PyPI name stays one
        "pip install -e .": set(),  # the folder is not named: no project to name
    }
    for command, names in cases.items():
        assert installed_packages(command) == names, command


def test_a_version_check_before_a_source_install_is_the_step(tmp_path: Path) -> None:
    checks = [("ssh gpu01 'pip show sglang'", "Name: sglang\nVersion: 0.4.1")]
    for install in ("ssh gpu01 'cd /opt/sglang && git checkout v0.4.6 && pip install -e \"python[all]\"'",
                    "ssh gpu01 'pip install git+https://github.com/sgl-project/sglang.git#subdirectory=python'"):
        steps = _steps(_session(tmp_path / "s.jsonl", checks, install))
        assert [s["run"] for s in steps] == ["pip show sglang"], install


def test_a_source_install_is_a_change_the_rise_followed(tmp_path: Path) -> None:
    bench = "ssh gpu01 'vllm bench serve --model meta-llama/Llama-3.1-8B-Instruct --num-prompts 100'"
    launch = ("ssh gpu01 'nohup vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
              "\"{\\\"method\\\": \\\"eagle3\\\", \\\"model\\\": \\\"/models/e3\\\", \\\"num_speculative_tokens\\\": 3}\" "
              "> /tmp/v.log 2>&1 &'")
    lines: list[dict] = []

    def add(kind: str, content: list | str) -> None:
        n = len(lines) + 1
        lines.append({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n > 1 else None,
                      "isSidechain": False, "sessionId": "s", "timestamp": f"2026-11-20T10:{n:02d}:00.000Z",
                      "message": {"role": "user" if kind == "user" else "assistant", "content": content}})

    def bash(command: str, output: str) -> None:
        tid = f"toolu_{len(lines)}"
        add("assistant", [{"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": command}}])
        add("user", [{"type": "tool_result", "tool_use_id": tid, "content": output, "is_error": False}])

    add("user", "EAGLE-3 on gpu01 is slow")
    bash(bench, _BENCH.format("60.5"))
    bash("ssh gpu01 'cd /opt/vllm && git pull && VLLM_USE_PRECOMPILED=1 pip install -e .'",
         "Successfully installed vllm-0.10.1")
    bash(launch, "")
    bash(bench, _BENCH.format("120.3"))
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert postmortem_view(analyze_path(path))["resolution"] == [
        "Throughput rose from 60.5 to 120.3 tok/s on gpu01 [msg 8] after `cd /opt/vllm && git pull && "
        "VLLM_USE_PRECOMPILED=1 pip install -e .` [msg 3], relaunching the server with "
        "`\"num_speculative_tokens\": 3` [msg 5]."]
