"""A Dockerfile CMD list written in single quotes is said not to start, not read as a server.

    CMD ['python3', '-m', 'sglang.launch_server', '--model-path', ...]

is not JSON, so Docker runs it in the shell form: `/bin/sh -c "['python3', ..."`, which finds no
command `[python3,` (exit 127) and the container exits (Dockerfile reference, "Exec form": "you
must use double-quotes (") around words, not single-quotes (')"). The audit said "not an SGLang or
vLLM server command"; now it names the quoting and the fix (SD102: the server does not start).
"""

from __future__ import annotations

import subprocess

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

_WORDS = ["python3", "-m", "sglang.launch_server", "--model-path", "meta-llama/Llama-3.1-8B-Instruct",
          "--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B"]
_SINGLE = "[" + ", ".join(f"'{w}'" for w in _WORDS) + "]"
_DOCKERFILE = f"FROM lmsysorg/sglang:v0.5.6\nEXPOSE 30000\nCMD {_SINGLE}\n"


def test_the_shell_form_finds_no_program() -> None:
    run = subprocess.run(["/bin/sh", "-c", _SINGLE], capture_output=True, text=True, check=False)
    assert run.returncode == 127 and "[python3,: not found" in run.stderr


def test_the_audit_names_the_quoting() -> None:
    with pytest.raises(LaunchParseError) as refused:
        parse_launch_command(_DOCKERFILE)
    assert refused.value.message == (
        "the Dockerfile's CMD is a list in single quotes, which is not JSON: Docker runs it as a shell command "
        "(/bin/sh -c \"['python3', '-m', 'sglang.launch_server'...\"), which finds no program to run, so the "
        "container exits and the server does not start")
    assert refused.value.hint.startswith('write the CMD list with double quotes: CMD ["python3", "-m", ')
    facts = launch_step.parse({"source": "var", "cmdline": _DOCKERFILE, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    assert [(f.code, f.severity) for f in launch_step.check(ctx)] == [("SD102", "error")]


def test_double_quotes_start_the_server() -> None:
    cfg = parse_launch_command(_DOCKERFILE.replace("'", '"'))
    assert (cfg.engine, cfg.algorithm, cfg.draft_model) == ("sglang", "EAGLE3", "lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B")
