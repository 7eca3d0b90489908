"""Review of the container readers: another program in place of the vLLM image's entrypoint.

`docker run --entrypoint python3 vllm/vllm-openai:TAG -c '...'` runs python3 with the words after
the image (docker run reference, "--entrypoint"); `apptainer exec docker://vllm/vllm-openai:TAG
python3 ...` runs the command given, not the image's runscript (Apptainer docs, "exec"). Both were
audited as the vLLM server the image's entrypoint starts: a server with no model, or model `python3`.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

SPEC = """--speculative-config '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'"""


@pytest.mark.parametrize("line", [
    "docker run --rm --entrypoint python3 vllm/vllm-openai:v0.9.1 -c 'import vllm; print(vllm.__version__)'",
    "docker run --rm --entrypoint=/bin/bash vllm/vllm-openai:v0.9.1 -lc nvidia-smi",
    "apptainer exec --nv docker://vllm/vllm-openai:v0.9.1 python3 -c 'import vllm'",
    "singularity shell --nv docker://vllm/vllm-openai:v0.9.1",
])
def test_another_program_in_the_image_is_no_server(line):
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(line)
    assert "not an SGLang or vLLM server command" in exc.value.message


@pytest.mark.parametrize("line", [
    f"docker run --gpus all vllm/vllm-openai:v0.9.1 --model meta-llama/Llama-3.1-8B-Instruct {SPEC}",
    f"apptainer run --nv docker://vllm/vllm-openai:v0.9.1 --model meta-llama/Llama-3.1-8B-Instruct {SPEC}",
    f"docker run --entrypoint vllm vllm/vllm-openai:v0.9.1 serve meta-llama/Llama-3.1-8B-Instruct {SPEC}",
    f"apptainer exec --nv docker://vllm/vllm-openai:v0.9.1 vllm serve meta-llama/Llama-3.1-8B-Instruct {SPEC}",
])
def test_the_images_server_is_still_read(line):
    cfg = parse_launch_command(line)
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct" and cfg.num_steps == 3
