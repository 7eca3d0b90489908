"""A `ps` line of a running vLLM server whose model path holds a space.

`ps -o args` (and `tr '\\0' ' ' < /proc/PID/cmdline`) print the server's argv words joined by single
spaces, quotes gone: `/usr/bin/python3 /usr/local/bin/vllm serve /mnt/f/AI/AI Models/Qwen3-8B --port
8000 ...` is a server started with the one model path '/mnt/f/AI/AI Models/Qwen3-8B' (the interpreter
before the console script's full path is what the kernel shows, never what a user types; a server
given two positionals exits at startup, 'unrecognized arguments', and leaves no process to list).

Before: pasted through --var server_cmdline, the line was refused as "'Models/Qwen3-8B' right after
the model /mnt/f/AI/AI is a second positional argument ... the server does not start" (SD102 error)
about a server that is running. Now: the words up to the first flag are the model path, and the
launch is audited as it runs; a typed `vllm serve /mnt/f/AI/AI Models/Qwen3-8B ...` (vllm-project/vllm
issue #15439) is still refused.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SPEC = '--speculative-config {"method": "eagle3", "model": "/mnt/f/AI/drafts/Qwen3-8B_eagle3", "num_speculative_tokens": 3}'
LISTED = f"/usr/bin/python3 /usr/local/bin/vllm serve /mnt/f/AI/AI Models/Qwen3-8B --port 8000 {SPEC}"


def _audit(command: str, version: str = "0.16.0"):
    facts = launch_step.parse({"source": "server_cmdline var", "cmdline": command})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts,
                       host_facts={**facts, "engine": {"name": "vllm", "version": version}})
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("command", [
    LISTED,
    # `ps aux`: the columns before the command
    f"root 4242 99.0 1.2 123456 7890 ? Sl 10:00 12:34 {LISTED}",
    # the interpreter of a virtual environment, a JSON with no spaces
    "/opt/venv/bin/python3.12 /opt/venv/bin/vllm serve /mnt/f/AI/AI Models/Qwen3-8B --port 8000 "
    '--speculative-config {"method":"eagle3","model":"/mnt/f/AI/drafts/Qwen3-8B_eagle3","num_speculative_tokens":3}',
])
def test_the_listed_model_path_is_one_word(command: str) -> None:
    cfg = parse_launch_command(command)
    assert (cfg.target_model, cfg.draft_model, cfg.num_steps) == (
        "/mnt/f/AI/AI Models/Qwen3-8B", "/mnt/f/AI/drafts/Qwen3-8B_eagle3", 3)


def test_the_running_server_is_audited_not_refused() -> None:
    launch, findings = _audit(LISTED)
    assert (launch["found"], launch["target_model"]) == (True, "/mnt/f/AI/AI Models/Qwen3-8B")
    assert [f for f in findings if f.code == "SD102"] == []


def test_a_typed_command_is_still_refused() -> None:
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command("vllm serve /mnt/f/AI/AI Models/Qwen3-8B --port 8000")
    assert raised.value.message == (
        "vllm: 'Models/Qwen3-8B' right after the model /mnt/f/AI/AI is a second positional argument: the server "
        "takes one, the model, so argparse exits with 'unrecognized arguments: Models/Qwen3-8B' and the server does "
        "not start")


def test_an_expansion_after_the_model_is_not_joined() -> None:
    # (`$ARGS` are flags the text does not show, not a part of the path)
    cfg = parse_launch_command("/usr/bin/python3 /usr/local/bin/vllm serve /models/Qwen3-8B $ARGS --port 8000")
    assert cfg.target_model == "/models/Qwen3-8B"
