"""A pasted Dockerfile is read as Docker runs its image: ENTRYPOINT/CMD under the stage's ENV.

    FROM lmsysorg/sglang:v0.5.6
    ENV SGLANG_ENABLE_SPEC_V2=1
    CMD ["python3", "-m", "sglang.launch_server", "--model-path", "...", "--speculative-eagle-topk", "2", ...]

was "not an SGLang or vLLM server command" (an exec-form CMD was only read pasted alone), and a
shell-form CMD was read without the ENV above it, so the spec v2 worker that SGLang 0.5.6 starts
for a tree (and fails in at the first decode) went unsaid. Now the last stage's command is read as
Docker joins it (Dockerfile reference: "ENV" both forms, "CMD", "ENTRYPOINT", "Understand how CMD
and ENTRYPOINT interact"), with the engines' variables of its ENV and the image's release tag.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, effective_spec, image_release, parse_launch_command

_SERVER = ["python3", "-m", "sglang.launch_server", "--model-path", "meta-llama/Llama-3.1-8B-Instruct",
           "--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path",
           "lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B", "--speculative-num-steps", "3", "--speculative-eagle-topk", "2",
           "--speculative-num-draft-tokens", "6"]
_EXEC_CMD = "CMD [" + ", ".join(f'"{w}"' for w in _SERVER) + "]\n"
_V2_CRASH = ("SGLANG_ENABLE_SPEC_V2=1 with topk 2: SGLang 0.5.6 starts the spec v2 worker, which only drafts chains: "
             "the first decode fails with a tensor size mismatch (\"RuntimeError: Sizes of tensors must match\", "
             "sgl-project/sglang#13352, #14077; 0.5.7 refuses this at startup); use --speculative-eagle-topk 1 or "
             "unset the variable")


def _read(dockerfile: str) -> tuple[dict[str, str], tuple[str, ...], str | None, list[str]]:
    cfg = parse_launch_command(dockerfile)
    release = image_release(cfg.argv, cfg.engine)
    return cfg.env, cfg.argv, release, effective_spec(cfg, engine_version=release).problems


@pytest.mark.parametrize("env", ["ENV SGLANG_ENABLE_SPEC_V2=1", "ENV SGLANG_ENABLE_SPEC_V2 1",
                                 'ENV HF_HOME=/data \\\n    SGLANG_ENABLE_SPEC_V2="1"'])
def test_an_exec_form_cmd_under_env(env: str) -> None:
    env_read, argv, release, problems = _read(f"# syntax=docker/dockerfile:1\nFROM lmsysorg/sglang:v0.5.6\n{env}\n"
                                              "EXPOSE 30000\n" + _EXEC_CMD)
    assert env_read == {"SGLANG_ENABLE_SPEC_V2": "1"}  # (HF_HOME is no engine's variable)
    assert argv == ("env", "SGLANG_ENABLE_SPEC_V2=1", "lmsysorg/sglang:v0.5.6", *_SERVER)
    assert (release, problems) == ("0.5.6", [_V2_CRASH])


def test_a_shell_form_cmd_under_env() -> None:
    dockerfile = ("FROM lmsysorg/sglang:v0.5.6\nENV SGLANG_ENABLE_SPEC_V2=1\nCMD " + " ".join(_SERVER[:8])
                  + " \\\n    " + " ".join(_SERVER[8:]) + "\n")
    env, _argv, release, problems = _read(dockerfile)
    assert (env, release, problems) == ({"SGLANG_ENABLE_SPEC_V2": "1"}, "0.5.6", [_V2_CRASH])


def test_entrypoint_and_cmd_and_stages() -> None:
    # an exec-form ENTRYPOINT takes CMD as its arguments; a stage FROM an earlier one keeps its ENV;
    # ARG fills in the image tag
    dockerfile = ("ARG TAG=v0.5.6\nFROM lmsysorg/sglang:${TAG} AS base\nENV SGLANG_ENABLE_SPEC_V2=1\n"
                  "FROM base\nRUN <<EOF\npip install -U hf_transfer\nCMD this is the heredoc's\nEOF\n"
                  "ENTRYPOINT [" + ", ".join(f'"{w}"' for w in _SERVER[:3]) + "]\n"
                  "CMD [" + ", ".join(f'"{w}"' for w in _SERVER[3:]) + "]\n")
    env, argv, release, problems = _read(dockerfile)
    assert argv == ("env", "SGLANG_ENABLE_SPEC_V2=1", "lmsysorg/sglang:v0.5.6", *_SERVER)
    assert (release, problems) == ("0.5.6", [_V2_CRASH])
    # a shell-form ENTRYPOINT ignores CMD: the server gets the entrypoint's words alone
    shell = dockerfile.replace("ENTRYPOINT [\"python3\", \"-m\", \"sglang.launch_server\"]",
                               "ENTRYPOINT python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct")
    cfg = parse_launch_command(shell)
    assert (cfg.target_model, cfg.algorithm, cfg.env) == ("meta-llama/Llama-3.1-8B-Instruct", None,
                                                           {"SGLANG_ENABLE_SPEC_V2": "1"})


def test_the_vllm_image_takes_cmd_as_its_arguments() -> None:
    dockerfile = ("FROM vllm/vllm-openai:v0.11.0\nENV VLLM_USE_V1=1\nCMD [\"--model\", \"meta-llama/Llama-3.1-8B-Instruct\", "
                  "\"--speculative-config\", \"{\\\"method\\\": \\\"eagle3\\\", \\\"model\\\": "
                  "\\\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\\\", \\\"num_speculative_tokens\\\": 3}\"]\n")
    cfg = parse_launch_command(dockerfile)
    assert (cfg.engine, cfg.target_model, cfg.draft_model, cfg.num_steps, cfg.env) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", 3, {"VLLM_USE_V1": "1"})
    assert image_release(cfg.argv, cfg.engine) == "0.11.0"


def test_a_dockerfile_that_starts_no_server_says_so() -> None:
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command("FROM python:3.11\nRUN pip install flask\nCMD [\"python\", \"app.py\"]\n")
