"""A `docker ps --no-trunc` row pasted as the launch (session 14).

docker prints COMMAND as one Go-quoted string, the entrypoint and arguments joined by spaces
(docker/cli cli/command/formatter/container.go, Command: strconv.Quote, cut to 20 characters
and "…" unless --no-trunc). The quoted string was read as one word: a vLLM image with no flags
(no speculative config, no finding), and an SGLang row was no server at all. Now the row's
command is read as a `ps` line (quotes kept) after its image; a cut row says it was cut.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, image_release, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

VLLM_ROWS = (
    "CONTAINER ID   IMAGE                      COMMAND                  CREATED       STATUS       PORTS     NAMES\n"
    "9b1e0c2d4a6f   redis:7                    \"docker-entrypoint.s…\"   3 days ago    Up 3 days    6379/tcp  cache\n"
    '4f2c9c1e3b7a   vllm/vllm-openai:v0.11.0   "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '
    '{\\"method\\":\\"eagle3\\",\\"model\\":\\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\\",\\"num_speculative_tokens\\":1}"'
    "   2 hours ago   Up 2 hours   0.0.0.0:8000->8000/tcp   vllm-eagle\n")

SGLANG_ROW = (
    '4f2c9c1e3b7a   lmsysorg/sglang:v0.5.6   "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct '
    "--speculative-algorithm EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B "
    '--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2"   2 hours ago   Up 2 hours   sglang\n')


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("rows, engine, release", [(VLLM_ROWS, "vllm", "0.11.0"), (SGLANG_ROW, "sglang", "0.5.6")])
def test_a_no_trunc_row_is_its_containers_command(rows, engine, release):
    cfg = parse_launch_command(rows)
    assert (cfg.engine, cfg.algorithm, cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == (engine, "EAGLE3", 1, 1, 2)
    assert image_release(list(cfg.argv), engine) == release
    launch, findings = _findings(rows)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_a_cut_row_says_so():
    with pytest.raises(LaunchParseError, match="docker ps cut the containers. commands") as exc:
        parse_launch_command('4f2c9c1e3b7a   vllm/vllm-openai:v0.11.0   "vllm serve meta-lla…"   2 hours ago   Up 2 hours   vllm\n')
    assert "--no-trunc" in exc.value.hint
