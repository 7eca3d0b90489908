"""A container's `bash -c "env A=1 vllm serve ..."`: only the string's leading assignments are
its environment.

Today's change keeps the container's words before a shell string's server (its image names the
release, its `-e` variables reach the server) and reads the string's own `env A=1` as `-e` words
after the container's. It took every `name=value` word of the string for one, so a flag's value
such as vLLM's `--lora-modules my_lora=/loras/a` (vLLM docs, "LoRA Adapters": name=path) became
an `-e`, the words sliced off were counted wrong, and the server was `serve` with no
environment. env(1) reads assignments only up to the command's name. And the string's bare
`A=1 python3 ...`, an `export A=1;` line or `exec env A=1 ...` was left after the image as its
argument: no environment at all (the same string outside a container had it).
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import image_release, parse_launch_command

SPEC = """'{\\"method\\": \\"eagle3\\", \\"model\\": \\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\\", \\"num_speculative_tokens\\": 3}'"""
CONTAINER = "docker run --gpus all -e VLLM_LOGGING_LEVEL=INFO vllm/vllm-openai:v0.11.0"


def test_a_lora_module_after_the_server_is_its_flag_value_not_its_environment():
    cfg = parse_launch_command(
        f'{CONTAINER} bash -c "env VLLM_USE_V1=1 vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora '
        f'--lora-modules sql_lora=/loras/sql --speculative-config {SPEC}"')
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"  # was 'serve'
    assert cfg.env == {"VLLM_LOGGING_LEVEL": "INFO", "VLLM_USE_V1": "1"}
    assert "sql_lora=/loras/sql" in cfg.argv[cfg.argv.index("--lora-modules"):]
    assert "sql_lora" not in cfg.env
    assert (cfg.algorithm, cfg.num_steps) == ("EAGLE3", 3)
    assert image_release(list(cfg.argv), "vllm") == "0.11.0"


def test_the_strings_own_assignments_still_override_the_containers():
    cfg = parse_launch_command(
        f'{CONTAINER} bash -c "env VLLM_LOGGING_LEVEL=DEBUG VLLM_USE_V1=1 vllm serve m --speculative-config {SPEC}"')
    assert cfg.env == {"VLLM_LOGGING_LEVEL": "DEBUG", "VLLM_USE_V1": "1"}
    assert cfg.target_model == "m"


SGLANG = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm "
          "EAGLE3 --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3 "
          "--speculative-eagle-topk 4 --speculative-num-draft-tokens 8")
OWN_ENVIRONMENTS = ["SGLANG_ENABLE_SPEC_V2=1 ", "env SGLANG_ENABLE_SPEC_V2=1 ", "export SGLANG_ENABLE_SPEC_V2=1; ",
                    "exec env SGLANG_ENABLE_SPEC_V2=1 ", "SGLANG_ENABLE_SPEC_V2=1 exec "]


@pytest.mark.parametrize("own", OWN_ENVIRONMENTS)
def test_a_docker_shell_strings_own_assignments_reach_the_server(own):
    """(was: `SGLANG_ENABLE_SPEC_V2=1` left after the image as its argument, no environment,
    so spec v2 with topk 4 gave no SD102; the same string outside docker had it)"""
    cfg = parse_launch_command(f'docker run --gpus all lmsysorg/sglang:v0.5.6 bash -c "{own}{SGLANG}"')
    assert cfg.env == {"SGLANG_ENABLE_SPEC_V2": "1"}
    assert (cfg.target_model, cfg.topk) == ("meta-llama/Llama-3.1-8B-Instruct", 4)
    assert image_release(list(cfg.argv), "sglang") == "0.5.6"


@pytest.mark.parametrize("own", OWN_ENVIRONMENTS)
def test_a_compose_shell_strings_own_assignments_reach_the_server(own):
    compose = ("services:\n  sglang:\n    image: lmsysorg/sglang:v0.5.6\n    entrypoint: [\"/bin/bash\", \"-c\"]\n"
               f"    command: [\"{own}{SGLANG}\"]\n")
    cfg = parse_launch_command(compose)
    assert cfg.env == {"SGLANG_ENABLE_SPEC_V2": "1"}
    assert image_release(list(cfg.argv), "sglang") == "0.5.6"
