"""A compose file whose `command:` takes its values from `.env` (session 14).

docker compose fills `${SPEC_STEPS}` in when it starts the service, from the shell's environment,
else the `.env` file in the project directory, and `docker compose config` prints the file with
the values filled in (docs.docker.com/compose/how-tos/environment-variables/variable-interpolation/,
whose own example is the paste `$ cat .env` / `TAG=v1.5` / `$ cat compose.yaml` / ...). The
audit said the *shell* expands it and told to read /proc; a paste of the .env with the compose
file was not read at all. Now: the .env's values are filled in as compose fills them (defaults,
required values), a variable the .env does not set stays unknown, and a compose file alone says
where the value comes from and to paste `docker compose config`.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

COMPOSE = """services:
  sglang:
    image: lmsysorg/sglang:v0.5.6
    environment:
      - HF_TOKEN=${HF_TOKEN}
    entrypoint: python3 -m sglang.launch_server
    command: --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps ${SPEC_STEPS} --speculative-eagle-topk 1 --speculative-num-draft-tokens ${DRAFT_TOKENS:-2}
"""

VLLM_COMPOSE = """services:
  vllm:
    image: vllm/vllm-openai:v0.11.0
    command:
      - meta-llama/Llama-3.1-8B-Instruct
      - --speculative-config
      - '{"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":${NUM_SPEC}}'
"""


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_the_compose_docs_paste_of_env_and_compose_file():
    text = "$ cat .env\nSPEC_STEPS=1\nHF_TOKEN=hf_x\n$ cat compose.yaml\n" + COMPOSE
    cfg = parse_launch_command(text)
    assert (cfg.algorithm, cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == ("EAGLE3", 1, 1, 2)
    launch, findings = _findings(text)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_env_lines_above_the_compose_file_with_comments_and_quotes():
    text = "# speculative settings\nSPEC_STEPS=3 # trained depth\nDRAFT_TOKENS='4'\n\n" + COMPOSE
    cfg = parse_launch_command(text)
    assert (cfg.num_steps, cfg.num_draft_tokens) == (3, 4)


def test_head_of_both_files_and_a_vllm_json():
    text = '==> .env <==\nNUM_SPEC="2"\n\n==> docker-compose.yml <==\n' + VLLM_COMPOSE
    cfg = parse_launch_command(text)
    assert (cfg.engine, cfg.algorithm, cfg.num_steps) == ("vllm", "EAGLE3", 2)


def test_a_required_variable_left_empty_is_compose_refusing_to_start():
    text = "SPEC_STEPS=\n" + COMPOSE.replace("${SPEC_STEPS}", "${SPEC_STEPS:?set it in .env}")
    with pytest.raises(LaunchParseError, match="required variable SPEC_STEPS"):
        parse_launch_command(text)


def test_a_variable_the_env_does_not_set_stays_unknown():
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command("HF_TOKEN=hf_x\n" + COMPOSE)
    assert "docker compose fills in" in exc.value.message and "${SPEC_STEPS}" in exc.value.message


@pytest.mark.parametrize("text", [COMPOSE, VLLM_COMPOSE])
def test_a_compose_file_alone_says_where_the_value_comes_from(text):
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(text)
    assert "docker compose fills in" in exc.value.message and ".env" in exc.value.message
    assert "shell expression" not in exc.value.message
    assert "docker compose config" in exc.value.hint
    launch, findings = _findings(text)
    assert not launch["found"] and "docker compose config" in launch["error"]
    assert [f.code for f in findings] == ["SD004"]
