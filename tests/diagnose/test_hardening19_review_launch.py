"""Valid launch commands the launch audit called broken.

- The vLLM docs' MLP speculator (features/speculative_decoding/mlp.md: `{"model":
  "ibm-ai-platform/llama3-8b-accelerator", "method": "mlp_speculator"}`, no K) takes its K from
  the draft config's n_predict. Where that config.json was not read (a hub name not in the host's
  cache) the audit still said "vLLM refuses to start" (SD102), on a guess.
- A containerised server (`docker run vllm/vllm-openai:v0.10.1.1 ...`) was judged by the release
  in the probe's own Python whenever that Python had the engine at all (a client venv's older
  vllm): "vLLM 0.8.4 has no EAGLE-3" for a v0.10.1.1 image. The image's release tag wins over
  the probe's Python; the server's own interpreter (read through /proc) and --var still win.
"""

from __future__ import annotations

from typing import Any

import pytest

from spec_debug.diagnose.launch import LaunchParseError, image_release, parse_launch_command
from spec_debug.diagnose.steps import engine_step, launch_step
from spec_debug.probes.registry import ProbeContext


def _audit(command: str, engine: dict[str, Any] | None = None, models: dict | None = None) -> list[Any]:
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": models or {}})
    host = {**facts, **({"engine": engine} if engine else {})}
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host)
    return launch_step.check(ctx)


MLP_DOCS = ("vllm serve meta-llama/Meta-Llama-3.1-8B-Instruct --speculative-config "
            "'{\"model\": \"ibm-ai-platform/llama3-8b-accelerator\", \"draft_tensor_parallel_size\": 1, "
            "\"method\": \"mlp_speculator\"}'")


def test_the_vllm_docs_mlp_speculator_without_k_is_no_refusal_when_its_config_is_unread() -> None:
    assert [f.code for f in _audit(MLP_DOCS)] == []  # before: SD102 "vLLM refuses to start"
    # written without a method, as the older docs did (vLLM picks mlp_speculator from the config)
    assert [f.code for f in _audit(MLP_DOCS.replace(', "method": "mlp_speculator"', ""))] == []


def test_an_eagle3_draft_without_k_is_still_refused_and_a_read_config_still_decides() -> None:
    eagle = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
             "'{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\"}'")
    (finding,) = _audit(eagle)
    assert finding.code == "SD102" and "num_speculative_tokens missing" in finding.evidence[0]
    # an MLP config read without n_predict: vLLM does refuse
    mlp = {"ibm-ai-platform/llama3-8b-accelerator": {"path": "/m", "config": {"model_type": "mlp_speculator"}}}
    (finding,) = _audit(MLP_DOCS, models=mlp)
    assert finding.code == "SD102" and "num_speculative_tokens missing" in finding.evidence[0]


IMAGE = ("docker run --runtime nvidia --gpus all -p 8000:8000 --ipc=host vllm/vllm-openai:{tag} "
         "--model meta-llama/Llama-3.1-8B-Instruct --speculative-config "
         "'{{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 2}}'")


def test_a_containerised_server_is_judged_by_its_image_not_the_probes_python() -> None:
    # engine_info on a host whose own Python has a client's vllm 0.8.4; the server's interpreter
    # (in the container) was not read
    probes_python = engine_step.parse({"args": {}, "python_executable": "/usr/bin/python3",
                                       "packages": {"vllm": {"version": "0.8.4", "path": "/usr/lib/python3/vllm"}},
                                       "server": {"note": "/proc/4242/root not readable"}})["engine"]
    assert probes_python["name"] == "vllm" and probes_python["server_read"] is False
    # before: SD103/SD102 "vLLM 0.8.4 has no EAGLE-3" for the v0.10.1.1 image
    assert [f.code for f in _audit(IMAGE.format(tag="v0.10.1.1"), probes_python)] == []
    # the image's tag still judges an image too old
    assert [f.code for f in _audit(IMAGE.format(tag="v0.8.4"), {**probes_python, "version": "0.10.1.1"})] != []
    # no release in the tag (latest): the probe's Python is all there is
    assert [f.code for f in _audit(IMAGE.format(tag="latest"), probes_python)] != []


def test_the_servers_own_interpreter_and_a_var_still_win_over_the_tag() -> None:
    server = {"name": "vllm", "version": "0.8.4", "version_source": "the server's interpreter (package metadata)",
              "server_read": True}
    assert [f.code for f in _audit(IMAGE.format(tag="v0.10.1.1"), server)] != []
    given = {"name": "vllm", "version": "0.8.4", "version_source": "--var engine_version", "server_read": False}
    assert [f.code for f in _audit(IMAGE.format(tag="v0.10.1.1"), given)] != []


def test_a_draft_model_that_is_no_string_is_a_clear_refusal_not_a_traceback() -> None:
    # before: TypeError "unhashable type: 'dict'" out of the launch step (its draft looked up by name)
    for command in ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
                    "'{\"method\": \"eagle3\", \"model\": {\"path\": \"/models/d\"}, \"num_speculative_tokens\": 3}'",
                    "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config.method eagle3 "
                    "--speculative-config.model.path /models/d --speculative-config.num_speculative_tokens 3"):
        with pytest.raises(LaunchParseError, match="model must be a string"):
            parse_launch_command(command)
        (finding,) = _audit(command)
        # vLLM refuses to start on it: an error (hardening69), no longer SD004 info
        assert (finding.code, finding.severity) == ("SD102", "error")
        assert "model must be a string" in " ".join(finding.evidence)


def test_an_empty_shell_string_is_no_server_command_not_a_traceback() -> None:
    # before: IndexError in the shell-line reader
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command("bash -c ''")
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command(["docker", "run", "img", "sh", "-c", ""])


def test_a_legacy_ngram_model_without_k_is_still_refused() -> None:
    # `--speculative-config '{"model": "[ngram]"}'` names prompt lookup, which has no draft config
    (finding,) = _audit("vllm serve facebook/opt-6.7b --speculative-config '{\"model\": \"[ngram]\"}'")
    assert finding.code == "SD102" and "num_speculative_tokens missing" in finding.evidence[0]


SGLANG_PINNED = ("docker run --gpus all --shm-size 32g --ipc=host lmsysorg/sglang:{image} python3 -m "
                 "sglang.launch_server --model-path meta-llama/Llama-2-7b-chat-hf --speculative-algo EAGLE "
                 "--speculative-draft lmzheng/sglang-EAGLE-llama2-chat-7B --speculative-num-steps 5 "
                 "--speculative-eagle-topk 8 --speculative-num-draft-tokens 64")
DIGEST = "sha256:" + "3f" * 32


def test_a_release_tag_pinned_to_its_digest_still_names_the_release() -> None:
    # 0.4.6 read --speculative-draft as the draft path; the newest rules call it ambiguous
    assert [f.code for f in _audit(SGLANG_PINNED.format(image="v0.4.6.post1-cu124"))] == []
    # before: `TAG@sha256:...` read as no release, judged by the newest rules: a false SD102
    assert [f.code for f in _audit(SGLANG_PINNED.format(image=f"v0.4.6.post1-cu124@{DIGEST}"))] == []
    assert image_release(["docker", "run", f"lmsysorg/sglang:v0.5.6@{DIGEST}"], "sglang") == "0.5.6"
    # a bare digest, latest and dev tags name no release
    for image in (f"lmsysorg/sglang@{DIGEST}", "lmsysorg/sglang:latest", "lmsysorg/sglang:dev-20260101",
                  f"lmsysorg/sglang:nightly@{DIGEST}"):
        assert image_release(["docker", "run", image], "sglang") is None
