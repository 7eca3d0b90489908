"""A Modal-style serve script: `json.dumps(SPEC)` in the argv list, started by
`subprocess.Popen(" ".join(cmd), shell=True)` (session 14).

Modal's vLLM examples and many scripts built on them (public repositories on GitHub) start the
server with `subprocess.Popen(" ".join(cmd), shell=True)`. `json.dumps` of a config written in
the same file was 'the Python expression json.dumps(...), whose value is not in this text'. And
joined for /bin/sh, its JSON (`{"method": "eagle3", ...}`, json.dumps' ", " separators) is split
at its spaces and unquoted: vLLM's json.loads refuses it and the server does not start, which the
audit now says, with the fix; run as a list it is read as written.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

SCRIPT = '''import json
import subprocess

import modal

MODEL_NAME = "meta-llama/Llama-3.1-8B-Instruct"
SPECULATIVE_CONFIG = {
    "method": "eagle3",
    "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
    "num_speculative_tokens": 1,
}

app = modal.App("example-vllm-eagle3")


@app.function(gpu="H100:1")
@modal.web_server(port=8000, startup_timeout=10 * 60)
def serve():
    cmd = [
        "vllm",
        "serve",
        "--uvicorn-log-level=info",
        MODEL_NAME,
        "--host",
        "0.0.0.0",
        "--port",
        "8000",
        "--speculative-config",
        json.dumps(SPECULATIVE_CONFIG),
    ]
    print(cmd)
    subprocess.Popen(" ".join(cmd), shell=True)
'''


def test_joined_for_a_shell_the_json_is_refused():
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(SCRIPT)
    assert "shell=True" in exc.value.message and "server does not start" in exc.value.message
    assert "shlex.join" in exc.value.hint


@pytest.mark.parametrize("start", ["subprocess.Popen(cmd)", "subprocess.Popen(shlex.join(cmd), shell=True)"])
def test_run_as_a_list_json_dumps_is_read(start):
    cfg = parse_launch_command(SCRIPT.replace('subprocess.Popen(" ".join(cmd), shell=True)', start))
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 1)


def test_a_join_of_plain_words_is_no_problem():
    plain = SCRIPT.replace("json.dumps(SPECULATIVE_CONFIG)", "'{\"method\":\"eagle3\",\"num_speculative_tokens\":1}'")
    with pytest.raises(LaunchParseError, match="shell=True"):  # its quotes still go
        parse_launch_command(plain)
    no_spec = SCRIPT.replace('        "--speculative-config",\n        json.dumps(SPECULATIVE_CONFIG),\n', "")
    cfg = parse_launch_command(no_spec)
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"
