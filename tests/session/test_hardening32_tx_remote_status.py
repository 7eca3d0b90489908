"""A status the remote shell echoes, inside the command ssh sends: ``ssh gpu02 'python3 -c
"import sglang"; echo $?'``. The echo ran on gpu02 and printed the import's status, but the
analysis read its 0 (the echo's) as the command's, and distill copied the line as is, so the
step exited 0 on a host without SGLang. The analysis now reads the echo in the command the host
ran, and the step saves the status and exits with it inside the quotes (ssh exits with the
remote command's status, ssh(1) EXIT STATUS)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml

from spec_debug.session import analyze_path
from spec_debug.session.unattended import host_command

CALLS = [
    ("Check the GPUs on gpu01.", "ssh gpu01 nvidia-smi", "NVIDIA-SMI 550\n| 0 H100 |"),
    ("Run the benchmark.", "ssh gpu01 'python3 -m sglang.bench_serving --num-prompts 50'",
     "Output token throughput (tok/s): 800.1\nAccept length: 1.2"),
    ("I suspect gpu02 lacks sglang; check the import there.", "ssh gpu02 'python3 -c \"import sglang\"; echo $?'",
     "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
     "ModuleNotFoundError: No module named 'sglang'\n1"),
    ("Ruled out; instead check the draft config on gpu01.", "ssh gpu01 cat /models/draft/config.json",
     '{"architectures": ["LlamaForCausalLMEagle3"]}'),
]


def _session(path: Path) -> Path:
    lines = []
    for n, (text, cmd, out) in enumerate(CALLS):
        ts = f"2026-01-01T00:{n:02d}:00Z"
        lines.append({"type": "assistant", "uuid": f"a{n}", "sessionId": "s1", "timestamp": ts,
                      "message": {"role": "assistant", "content": [
                          {"type": "text", "text": text},
                          {"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": cmd}}]}})
        lines.append({"type": "user", "uuid": f"u{n}", "sessionId": "s1", "timestamp": ts,
                      "message": {"role": "user", "content": [
                          {"type": "tool_result", "tool_use_id": f"t{n}", "content": out, "is_error": False}]}})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_the_remote_echo_gives_the_command_its_exit_code(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path / "s1.jsonl"))
    remote = next(c for c in a.commands if c.host == "gpu02")
    assert (remote.exit_code, remote.is_error) == (1, True)


def test_the_distilled_step_on_the_other_host_fails_where_the_session_failed(tmp_path: Path) -> None:
    out = tmp_path / "playbook.yaml"
    subprocess.run([sys.executable, "-m", "spec_debug", "distill", str(_session(tmp_path / "s1.jsonl")),
                    "-o", str(out)], check=True, capture_output=True)
    run = next(step["run"] for step in yaml.safe_load(out.read_text())["steps"] if "import sglang" in step["run"])
    assert run.startswith("ssh {{ host_gpu02 }} ")
    # what gpu02's shell runs, on a host without the module
    remote = host_command(run.replace("{{ host_gpu02 }}", "gpu02"), "gpu02")
    done = subprocess.run(["bash", "-c", remote.replace("import sglang", "import spec_debug_no_such_module")],
                          capture_output=True, text=True)
    assert done.returncode == 1, (run, done)
    assert done.stdout.strip() == "1"  # the line the session saw


def test_only_a_quoted_remote_command_that_ends_the_line_is_changed() -> None:
    from spec_debug.session.unattended import keeping_remote_status
    assert keeping_remote_status('ssh -i k u@gpu02 "python x.py; echo \\$?"', "gpu02") \
        == "ssh -i k u@gpu02 'python x.py; rc=$?; echo $rc; exit $rc'"
    for typed in ("ssh gpu02 'python x.py'; echo $?",  # the local echo: keeping_status's case
                  "ssh gpu02 'for i in 1 2; do x; echo $?; done'",  # each try's status
                  "ssh gpu03 'python x.py; echo $?'",  # another host
                  'ssh gpu02 "cd $D; x; echo \\$?"'):  # $D is the local shell's: quoting would move it
        assert keeping_remote_status(typed, "gpu02") == typed
