"""KServe's Hugging Face runtime serving with vLLM: `python -m huggingfaceserver`.

The runtime adds vLLM's engine args to its own parser (kserve/kserve python/huggingfaceserver/
huggingfaceserver/vllm/utils.py `maybe_add_vllm_cli_parser`) and hands vLLM the model of its own
`--model_id`, else `--model_dir` (default /mnt/models): `args.model = args.model_id or
args.model_dir` (huggingfaceserver/__main__.py). The image's ENTRYPOINT is `python3 -m
huggingfaceserver`. The audit said "not an SGLang or vLLM server command" for the process line
and the `docker run`, and read no target from an InferenceService's args, so the speculative
flags of a KServe pod went unread.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.launch_flags import is_server_argv

SPEC = """'{"method":"eagle3","model":"/mnt/draft","num_speculative_tokens":1}'"""


def test_the_process_line_of_a_kserve_pod_is_a_vllm_server_with_its_model_dir() -> None:
    argv = ["/usr/bin/python3", "-m", "huggingfaceserver", "--model_name=llama3", "--model_dir=/mnt/models",
            "--tensor-parallel-size=4", "--speculative-config",
            '{"method":"eagle3","model":"/mnt/draft","num_speculative_tokens":1}']
    assert is_server_argv(argv)  # the host probe lists it
    cfg = parse_launch_command(argv)
    assert (cfg.engine, cfg.target_model, cfg.draft_model, cfg.num_steps, cfg.tp) == (
        "vllm", "/mnt/models", "/mnt/draft", 1, 4)
    # no --model_dir: the runtime's default, where the storage initializer puts the model
    cfg = parse_launch_command(f"python3 -m huggingfaceserver --model_name=llama3 --speculative-config {SPEC}")
    assert cfg.target_model == "/mnt/models"


def test_model_id_wins_over_model_dir_and_a_vllm_model_flag() -> None:
    cfg = parse_launch_command("python3 -m huggingfaceserver --model_dir=/mnt/models --model_id=meta-llama/"
                               f"Llama-3.1-8B-Instruct --model other/model --speculative-config {SPEC}")
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"


def test_docker_run_of_the_kserve_image_reads_the_flags_after_it() -> None:
    cfg = parse_launch_command("docker run --gpus all -p 8080:8080 kserve/huggingfaceserver:v0.15.0 "
                               "--model_name=llama3 --model_id=meta-llama/Llama-3.1-8B-Instruct "
                               f"--speculative-config {SPEC}")
    assert (cfg.engine, cfg.target_model, cfg.num_steps) == ("vllm", "meta-llama/Llama-3.1-8B-Instruct", 1)


def test_an_inference_service_args_name_the_target_and_the_capped_draft_is_reported() -> None:
    isvc = """apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: huggingface-llama3
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      args:
        - --model_name=llama3
        - --model_id=meta-llama/Llama-3.1-8B-Instruct
        - --speculative-config={"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":1}
"""
    cfg = parse_launch_command(isvc)
    assert (cfg.engine, cfg.target_model) == ("vllm", "meta-llama/Llama-3.1-8B-Instruct")
    facts = launch_step.parse({"source": "var", "cmdline": isvc, "models": {}})
    assert facts["launch"]["found"] and facts["resolved_target_model"] == "meta-llama/Llama-3.1-8B-Instruct"


def test_a_transformers_backend_is_said_to_run_no_speculation() -> None:
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command("python3 -m huggingfaceserver --model_id=meta-llama/Llama-3.1-8B-Instruct "
                             f"--backend=huggingface --speculative-config {SPEC}")
    assert "--backend huggingface does not serve with vLLM" in raised.value.message
    # vllm and auto (the default) are vLLM
    for backend in ("vllm", "auto"):
        cfg = parse_launch_command(f"python3 -m huggingfaceserver --model_id=m/x --backend {backend} "
                                   f"--speculative-config {SPEC}")
        assert cfg.engine == "vllm" and cfg.target_model == "m/x"


def test_an_underscored_speculative_flag_is_dropped_by_kserves_parser() -> None:
    # huggingfaceserver/__main__.py: a plain argparse parser with vLLM's dashed options, read with
    # parse_known_args(): `--speculative_config` (vllm-ascend's docs' spelling) is dropped, where
    # `vllm serve` (FlexibleArgumentParser) would take it
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command(f"python3 -m huggingfaceserver --model_id=m/x --speculative_config {SPEC}")
    assert "runs without speculative decoding" in raised.value.message
    assert raised.value.hint == "write --speculative-config"
    # its own underscored options are its own
    cfg = parse_launch_command(f"python3 -m huggingfaceserver --model_id=m/x --max_model_len 4096 "
                               f"--trust_remote_code --speculative-config {SPEC}")
    assert cfg.num_steps == 1 and cfg.context_length == 4096
    assert parse_launch_command(f"vllm serve m/x --speculative_config {SPEC}").num_steps == 1


def test_a_search_for_the_runtime_is_no_server() -> None:
    assert not is_server_argv(["pgrep", "-af", "huggingfaceserver"])
    assert is_server_argv(["python3", "-m", "huggingfaceserver", "--model_name=m"])
