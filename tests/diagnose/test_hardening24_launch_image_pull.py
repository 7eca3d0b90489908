"""A script that pulls the vLLM image before running it (session 15).

`docker pull vllm/vllm-openai:TAG && docker run ... vllm/vllm-openai:TAG --model M ...` (and
`docker image inspect`, `enroot import docker://...`) names the image without starting it. The
pull was read as a vLLM server with no model and no flags, and chosen over the `docker run` after
it: the audited server had no target and none of the run's flags.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import image_release, parse_launch_command

RUN = "docker run --gpus all --ipc=host vllm/vllm-openai:v0.10.2 --model meta-llama/Llama-3.1-8B-Instruct --max-model-len 4096"


@pytest.mark.parametrize("before", [
    "docker pull vllm/vllm-openai:v0.10.2 && ",
    "sudo docker pull vllm/vllm-openai:v0.10.2\n",
    "docker image inspect vllm/vllm-openai:v0.10.2 >/dev/null || docker pull vllm/vllm-openai:v0.10.2\n",
    "podman pull docker.io/vllm/vllm-openai:v0.10.2; ",
])
def test_a_pull_before_the_run_is_no_server(before):
    cfg = parse_launch_command(before + RUN)
    assert (cfg.engine, cfg.target_model, cfg.flags.get("max-model-len")) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "4096")
    assert image_release(cfg.argv, "vllm") == "0.10.2"


def test_an_enroot_import_before_vllm_serve_is_no_server():
    cfg = parse_launch_command("enroot import docker://vllm/vllm-openai:v0.10.2 && vllm serve meta-llama/Llama-3.1-8B-Instruct")
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"


def test_docker_create_is_still_the_containers_server():
    cfg = parse_launch_command("docker create --name v vllm/vllm-openai:v0.10.2 --model m")
    assert (cfg.engine, cfg.target_model) == ("vllm", "m")
