"""Launch commands from real deployments that the parser used to misread or refuse.

Each command is copied from the issue, model card or doc named above it; the expected reading
is what the engine's own argument parser does with it (the source line is cited in
spec_debug/diagnose/launch.py next to the rule).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spec_debug.diagnose.checks.launch_flags import check_algorithm, check_draft_budget, check_num_steps
from spec_debug.diagnose.launch import LaunchParseError, effective_spec, parse_launch_command

# The GLM-4.7 serving recipe as quoted in a vLLM bug report against vLLM 0.17.1 (the same
# dotted flags as https://github.com/vllm-project/vllm/issues/32090): the dotted form of
# --speculative-config, one MTP token per round.
GLM47_DOTTED = """vllm serve zai-org/GLM-4.7-FP8 \\
  --tensor-parallel-size 8 \\
  --speculative-config.method mtp \\
  --speculative-config.num_speculative_tokens 1 \\
  --tool-call-parser glm47 \\
  --reasoning-parser glm45 \\
  --enable-auto-tool-choice \\
  --async-scheduling \\
  --enable-prefix-caching \\
  --max-num-batched-tokens 16K"""

# https://github.com/vllm-project/vllm/issues/32090: the container `args:` list of a k8s
# deployment of the vllm/vllm-openai image, `=`-joined dotted keys.
VLLM_32090_K8S_ARGS = [
    "--gpu-memory-utilization=0.9", "--tensor-parallel-size=8", "--max-num-batched-tokens=65536",
    "--max-num-seqs=512", "--enable-auto-tool-choice", "--tool-call-parser=glm47",
    "--reasoning-parser=glm45", "--speculative-config.method=mtp",
    "--speculative-config.num_speculative_tokens=1", "--served-model-name=glm-4.7-fp8",
    "--enable-expert-parallel",
]

# A user's run script for Qwen3.5 with the --spec-* shorthands of vLLM PR #42476
# (https://github.com/vllm-project/vllm/pull/42476), started with nohup and a redirect.
VLLM_SPEC_SHORTHANDS = """nohup /home/cuong/anaconda3/bin/conda run -n llm \\
  python -m vllm.entrypoints.openai.api_server \\
  --model Qwen/Qwen3.5-2B \\
  --served-model-name Qwen3.5-2B \\
  --host 0.0.0.0 \\
  --port 7500 \\
  --max-model-len 32768 \\
  --tensor-parallel-size 1 \\
  --dtype bfloat16 \\
  --enable-prefix-caching \\
  --spec-method mtp \\
  --spec-tokens 3 \\
  --performance-mode throughput \\
  --no-enable-log-requests \\
  > /home/cuong/Downloads/thi_llm/server.log 2>&1 &"""

# Docker form of the vLLM docs (deployment/docker.md: the image's entrypoint is the server,
# so flags follow the image name) with the dotted config, from a Qwen3 NVFP4 recipe.
VLLM_DOCKER_DOTTED = """docker run --runtime nvidia --gpus all \\
    -v ~/.cache/huggingface:/root/.cache/huggingface \\
    -p 8000:8000 \\
    --ipc=host \\
    vllm/vllm-openai:latest \\
    --model gittensor-model-hub/Qwen3.8-27B-NVFP4-RTX5090 \\
    --trust-remote-code \\
    --dtype bfloat16 \\
    --max-model-len 131072 \\
    --speculative-config.method mtp \\
    --speculative-config.num_speculative_tokens 2 \\
    --enable-prefix-caching"""

# speculators docs, "Serve in vLLM" (the command test_launch.py splits as a shell line): here
# it is the argv of a running process, read back the way `ps` prints it.
SPECULATORS_ARGV = ["serve", "Qwen/Qwen3-8B", "-tp", "1", "--speculative-config",
                    '{"model": "RedHatAI/Qwen3-8B-speculator.eagle3", "num_speculative_tokens": 3, '
                    '"method": "eagle3"}']

# SGLang docs, server arguments: the router launcher takes the server's own flags.
SGLANG_ROUTER_DOCS = ("python -m sglang_router.launch_server --model-path "
                      "meta-llama/Meta-Llama-3-8B-Instruct --dp 2 --tp 2")
# delphi's example script: the router with SGLang's --tensor-parallel-size alias.
SGLANG_ROUTER_TP_ALIAS = ('uv run python -m sglang_router.launch_server --model-path '
                          '"hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4" --port 8000 --host 0.0.0.0 '
                          '--tensor-parallel-size=2 --mem-fraction-static=0.8 --dp-size 2')

# A deployment script for an RTX 4090 pair: STANDALONE with only --speculative-num-steps.
# SGLang then compares `speculative_eagle_topk > 1` on None at startup (server_args.py).
SGLANG_STANDALONE_DOCKER = """docker run --gpus all \\
  --shm-size 32g \\
  --ipc=host \\
  -p 30000:30000 \\
  -v ~/.cache/huggingface:/root/.cache/huggingface \\
  --env "HF_TOKEN=${HF_TOKEN:-}" \\
  lmsysorg/sglang:latest \\
  python3 -m sglang.launch_server \\
    --model-path Qwen/Qwen2.5-32B-Instruct-AWQ \\
    --speculative-draft-model-path Qwen/Qwen2.5-1.5B-Instruct \\
    --speculative-algorithm STANDALONE \\
    --speculative-num-steps 5 \\
    --tp 2 \\
    --mem-fraction-static 0.82 \\
    --attention-backend flashinfer \\
    --enable-metrics \\
    --host 0.0.0.0 \\
    --port 30000"""


def test_dotted_speculative_config_is_read_and_one_token_is_flagged():
    cfg = parse_launch_command(GLM47_DOTTED)
    assert (cfg.engine, cfg.target_model, cfg.tp) == ("vllm", "zai-org/GLM-4.7-FP8", 8)
    assert cfg.speculative_config == {"method": "mtp", "num_speculative_tokens": 1}
    assert (cfg.algorithm, cfg.num_steps, cfg.num_draft_tokens) == ("MTP", 1, 2)
    found = check_num_steps(cfg, effective_spec(cfg), trained_steps=None)
    assert [f.code for f in found] == ["SD101"]
    # the evidence quotes the flag the way this command spells it
    assert found[0].evidence[0] == "launch command: --speculative-config.num_speculative_tokens 1"


def test_k8s_args_list_with_equals_and_dotted_keys():
    cfg = parse_launch_command(["vllm", "serve", "zai-org/GLM-4.7-FP8", *VLLM_32090_K8S_ARGS])
    assert cfg.speculative_config == {"method": "mtp", "num_speculative_tokens": 1}
    assert (cfg.tp, cfg.num_steps) == (8, 1)
    assert cfg.flags["enable-expert-parallel"] is True


def test_dotted_keys_replace_an_earlier_json_config_as_vllm_does():
    # FlexibleArgumentParser appends the merged dotted dict as a last --speculative-config,
    # so the JSON given first is dropped whole (the draft and method with it)
    cfg = parse_launch_command(
        """vllm serve m --speculative-config '{"method": "eagle3", "model": "d", "num_speculative_tokens": 5}' """
        "--speculative-config.num_speculative_tokens 1")
    assert cfg.speculative_config == {"num_speculative_tokens": 1}
    assert (cfg.draft_model, cfg.num_steps) == (None, 1)


def test_spec_shorthand_flags_and_the_redirect_target():
    cfg = parse_launch_command(VLLM_SPEC_SHORTHANDS)
    assert (cfg.engine, cfg.target_model, cfg.dtype) == ("vllm", "Qwen/Qwen3.5-2B", "bfloat16")
    assert cfg.speculative_config == {"method": "mtp", "num_speculative_tokens": 3}
    assert (cfg.algorithm, cfg.num_steps) == ("MTP", 3)
    assert not any("server.log" in a for a in cfg.argv)
    one = parse_launch_command(VLLM_SPEC_SHORTHANDS.replace("--spec-tokens 3", "--spec-tokens 1"))
    [finding] = check_num_steps(one, effective_spec(one), trained_steps=3)
    assert finding.remediation == "Serve with 3 speculative tokens: --spec-tokens 3."
    with pytest.raises(LaunchParseError, match="mutually exclusive"):
        parse_launch_command("""vllm serve m --spec-tokens 2 --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}'""")


def test_docker_vllm_openai_image_is_the_server():
    cfg = parse_launch_command(VLLM_DOCKER_DOTTED)
    assert (cfg.engine, cfg.target_model) == ("vllm", "gittensor-model-hub/Qwen3.8-27B-NVFP4-RTX5090")
    assert (cfg.num_steps, cfg.context_length) == (2, 131072)


# the same flags with `--speculative-config={...}`, as `ps` prints the `=` spelling
SPECULATORS_ARGV_EQUALS = [*SPECULATORS_ARGV[:4], "=".join(SPECULATORS_ARGV[4:])]


@pytest.fixture(params=[SPECULATORS_ARGV, SPECULATORS_ARGV_EQUALS], ids=["space", "equals"])
def running_server(tmp_path: Path, request):
    """A process whose argv is the server's (a script named `vllm` that sleeps)."""
    script = tmp_path / "vllm"
    script.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(30)\n")
    script.chmod(0o755)
    proc = subprocess.Popen([str(script), *request.param])
    try:
        cmdline = Path(f"/proc/{proc.pid}/cmdline")
        deadline = time.monotonic() + 10
        while str(script) not in cmdline.read_bytes().decode(errors="replace"):
            assert time.monotonic() < deadline, "the fake server did not start"
            time.sleep(0.05)
        yield proc.pid
    finally:
        proc.kill()
        proc.wait()


def _ps_args(pid: int, *options: str, columns: str | None = None) -> str:
    env = dict(os.environ)
    if columns:
        env["COLUMNS"] = columns
    return subprocess.run(["ps", *options, "-o", "args=", "-p", str(pid)], env=env,
                          capture_output=True, text=True, check=True).stdout.strip()


def test_a_line_copied_from_ps_keeps_its_json(running_server):
    line = _ps_args(running_server, "-ww")
    assert '{"model": "RedHatAI' in line  # ps prints argv words as is: no shell quotes
    cfg = parse_launch_command(line)
    assert (cfg.engine, cfg.target_model, cfg.tp) == ("vllm", "Qwen/Qwen3-8B", 1)
    assert (cfg.draft_model, cfg.algorithm, cfg.num_steps) == (
        "RedHatAI/Qwen3-8B-speculator.eagle3", "EAGLE3", 3)
    raw = Path(f"/proc/{running_server}/cmdline").read_text()
    assert parse_launch_command(raw).speculative_config == cfg.speculative_config


def test_a_ps_line_cut_at_the_terminal_width_says_so(running_server):
    full = _ps_args(running_server, "-ww")
    width = full.index('"num_speculative_tokens"')  # the terminal ends inside the JSON
    line = _ps_args(running_server, columns=str(width))
    assert line == full[:width].rstrip()
    with pytest.raises(LaunchParseError, match="ps -ww"):
        parse_launch_command(line)


def test_bash_c_wrapper_as_in_a_container_command():
    cfg = parse_launch_command(["/bin/bash", "-c", SGLANG_ROUTER_DOCS + " --speculative-algorithm EAGLE3"])
    assert (cfg.engine, cfg.target_model, cfg.algorithm) == (
        "sglang", "meta-llama/Meta-Llama-3-8B-Instruct", "EAGLE3")
    line = parse_launch_command("bash -lc 'exec " + SGLANG_ROUTER_DOCS + "'")
    assert line.tp == 2


def test_sglang_router_launcher_and_the_tensor_parallel_alias():
    assert parse_launch_command(SGLANG_ROUTER_DOCS).engine == "sglang"
    cfg = parse_launch_command(SGLANG_ROUTER_TP_ALIAS)
    assert (cfg.target_model, cfg.tp) == ("hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4", 2)


def test_last_alias_wins_like_argparse():
    # argparse stores each occurrence in order: `--model-path a --model b` serves b
    cfg = parse_launch_command("python -m sglang.launch_server --model-path a --model b --tp 2 "
                               "--tensor-parallel-size 4 --speculative-draft-model-path d1 "
                               "--speculative-draft-model d2")
    assert (cfg.target_model, cfg.tp, cfg.draft_model) == ("b", 4, "d2")


def test_standalone_follows_the_eagle_rules():
    cfg = parse_launch_command(SGLANG_STANDALONE_DOCKER)
    assert (cfg.algorithm, cfg.num_steps, cfg.topk) == ("STANDALONE", 5, None)
    eff = effective_spec(cfg)
    assert eff.problems and "--speculative-eagle-topk is not" in eff.problems[0]
    assert [f.code for f in check_draft_budget(cfg, eff)] == ["SD102"]
    # with nothing set SGLang auto-chooses (3, 1, 4) for STANDALONE whatever the target
    auto = effective_spec(parse_launch_command(
        "python3 -m sglang.launch_server --model-path meta-llama/Meta-Llama-3-70B-Instruct "
        "--speculative-algorithm STANDALONE --speculative-draft-model-path meta-llama/Meta-Llama-3-8B-Instruct"),
        target_architecture="LlamaForCausalLM")
    assert (auto.num_steps, auto.topk, auto.num_draft_tokens, auto.auto_chosen) == (3, 1, 4, True)
    # topk 1 rewrites draft tokens to steps + 1 for STANDALONE too
    chain = effective_spec(parse_launch_command(
        "python3 -m sglang.launch_server --model-path t --speculative-algorithm STANDALONE "
        "--speculative-draft-model-path d --speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 8"))
    assert chain.num_draft_tokens == 4


def test_sglang_rejects_underscore_spellings():
    # vLLM accepts --speculative_config (FlexibleArgumentParser); SGLang's argparse does not
    with pytest.raises(LaunchParseError, match="not an SGLang flag"):
        parse_launch_command("python3 -m sglang.launch_server --model-path m "
                             "--speculative-algorithm EAGLE3 --speculative_num_steps 3")


def test_vllm_none_config_and_method_from_the_draft_name():
    assert not parse_launch_command("vllm serve m --speculative-config None").speculative
    # vLLM names the method from the draft when none is given ("eagle3" in the name)
    cfg = parse_launch_command(
        """vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'""")
    assert cfg.algorithm == "EAGLE3"


def test_a_value_flag_with_its_value_cut_off():
    with pytest.raises(LaunchParseError, match="has no value"):
        parse_launch_command("python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
                             "--speculative-num-steps")


# RubricLab/inference Dockerfile: the exec form of CMD (a JSON array, no shell).
DOCKERFILE_CMD = ('CMD ["python", "-m", "sglang.launch_server", "--model-path", "Qwen/Qwen3-8B", "--host", '
                  '"0.0.0.0", "--port", "8000", "--grammar-backend", "llguidance"]')


def test_dockerfile_exec_form():
    cfg = parse_launch_command(DOCKERFILE_CMD)
    assert (cfg.engine, cfg.target_model, cfg.flags["grammar-backend"]) == ("sglang", "Qwen/Qwen3-8B", "llguidance")


def test_a_container_script_of_several_commands():
    # k8s pods run `command: ["/bin/bash"], args: ["-c", "export ... && pip install ... && cd
    # /workspace && <server>"]` (e.g. a `kubectl run --overrides` script for the rocm/sgl-dev image);
    # the server is the command that starts it, not the first one
    args = ["/bin/bash", "-c",
            "export HF_HUB_CACHE_DIR=/root/.cache/huggingface/hub && pip install sglang-router && "
            "cd /workspace && SGLANG_ENABLE_SPEC_V2=1 " + SGLANG_ROUTER_DOCS +
            " --speculative-algorithm EAGLE3 --speculative-num-steps 1 --speculative-eagle-topk 1"
            " 2>&1 | tee /workspace/server.log"]
    cfg = parse_launch_command(args)
    assert (cfg.engine, cfg.env, cfg.num_steps) == ("sglang", {"SGLANG_ENABLE_SPEC_V2": "1"}, 1)
    assert "tee" not in cfg.argv and cfg.argv[0] == "SGLANG_ENABLE_SPEC_V2=1"


# config.json of jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B, the draft of the SGLang
# docs' EAGLE-3 example (the fields check_algorithm reads)
EAGLE3_DRAFT_CONFIG = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama",
                       "hidden_size": 4096, "draft_vocab_size": 32000, "torch_dtype": "float16"}


def test_nextn_runs_as_eagle_so_an_eagle3_draft_is_flagged():
    # the docs' EAGLE-3 command with the MTP spelling people copy from DeepSeek recipes
    cfg = parse_launch_command(
        "python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NEXTN "
        "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 5 "
        "--speculative-eagle-topk 8 --speculative-num-draft-tokens 32")
    [finding] = check_algorithm(cfg, EAGLE3_DRAFT_CONFIG)
    assert finding.code == "SD103" and "runs it as EAGLE" in finding.evidence[0]
    # vLLM without a method: the name makes it eagle, the checkpoint is EAGLE-3
    vllm = parse_launch_command("""vllm serve m --speculative-config '{"model": "org/EAGLE-llama3-draft", "num_speculative_tokens": 3}'""")
    [finding] = check_algorithm(vllm, EAGLE3_DRAFT_CONFIG)
    assert "infers eagle from the draft name" in finding.evidence[0]


# vLLM docs, deployment/k8s.md: the Deployment's container runs the server through `sh -c`.
VLLM_DOCS_K8S = """
        spec:
          containers:
          - name: mistral-7b
            image: vllm/vllm-openai:latest
            command: ["/bin/sh", "-c"]
            args: [
              "vllm serve mistralai/Mistral-7B-Instruct-v0.3 --trust-remote-code --enable-chunked-prefill --max_num_batched_tokens 1024"
            ]
            ports:
            - containerPort: 8000
"""


def test_a_pasted_kubernetes_container_spec():
    cfg = parse_launch_command(VLLM_DOCS_K8S)
    assert (cfg.engine, cfg.target_model) == ("vllm", "mistralai/Mistral-7B-Instruct-v0.3")
    assert cfg.flags["max-num-batched-tokens"] == "1024"
    # vllm-project/vllm#32090 ran the vllm/vllm-openai image (VLLM_USAGE_SOURCE=production-docker-image)
    # with an `args:` list only: the image's entrypoint is the server
    manifest = "image: vllm/vllm-openai:latest\nargs:\n" + "".join(
        f'  - "{a}"\n' for a in ["--model=zai-org/GLM-4.7-FP8", *VLLM_32090_K8S_ARGS])
    glm = parse_launch_command(manifest)
    assert (glm.target_model, glm.tp, glm.num_steps) == ("zai-org/GLM-4.7-FP8", 8, 1)
