"""`kubectl run NAME --image=vllm/vllm-openai:TAG -- ARGS` pasted as the launch (session 15).

kubectl run hands the words after `--` to the image's entrypoint (kubectl run --help: "kubectl
run nginx --image=nginx -- <arg1> <arg2> ... <argN>"), and the vLLM image's entrypoint is the
server. It was 'not an SGLang or vLLM server command' (the image is the value of --image=), and
the image's release was unknown for a `--command` SGLang pod too.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, image_release, parse_launch_command

SPEC = '\'{"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":1}\''


@pytest.mark.parametrize("command", [
    f"kubectl run vllm --image=vllm/vllm-openai:v0.10.2 --restart=Never -- --model meta-llama/Llama-3.1-8B-Instruct "
    f"--speculative-config {SPEC}",
    f"kubectl run vllm --image vllm/vllm-openai:v0.10.2 --port 8000 -- meta-llama/Llama-3.1-8B-Instruct "
    f"--speculative-config {SPEC}",
])
def test_the_words_after_dashes_are_the_vllm_images_arguments(command):
    cfg = parse_launch_command(command)
    assert (cfg.engine, cfg.target_model, cfg.draft_model) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")
    assert "restart" not in cfg.flags and "port" not in cfg.flags  # (kubectl's, not the server's)
    assert image_release(cfg.argv, "vllm") == "0.10.2"


def test_a_command_pod_names_its_images_release():
    cfg = parse_launch_command("kubectl run sglang --image=lmsysorg/sglang:v0.5.2 --command -- python3 -m "
                               "sglang.launch_server --model-path m --speculative-algorithm EAGLE3")
    assert (cfg.engine, image_release(cfg.argv, "sglang")) == ("sglang", "0.5.2")


def test_another_image_is_no_server():
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command("kubectl run web --image=nginx:1.27 -- --model m")


@pytest.mark.parametrize("command, engine, release", [
    # Slurm with pyxis (NVIDIA/pyxis README: `srun --container-image=IMAGE ...`)
    ("srun --container-image=lmsysorg/sglang:v0.5.2 --container-mounts=/data:/data python3 -m sglang.launch_server "
     "--model-path m --speculative-algorithm EAGLE3", "sglang", "0.5.2"),
    # Apptainer / Singularity pulling the image from Docker Hub
    ("apptainer run --nv docker://vllm/vllm-openai:v0.10.2 --model m", "vllm", "0.10.2"),
    ("singularity exec --nv docker://lmsysorg/sglang:v0.5.2 python3 -m sglang.launch_server --model-path m",
     "sglang", "0.5.2"),
])
def test_an_image_named_in_a_runners_flag_or_uri_names_the_release(command, engine, release):
    # (was: the release unknown, so the release-specific rules fell back to 'unknown')
    cfg = parse_launch_command(command)
    assert (cfg.engine, image_release(cfg.argv, engine)) == (engine, release)
