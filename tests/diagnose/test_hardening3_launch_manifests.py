"""Container specs pasted as the server command: compose `entrypoint:`, multi-document
Kubernetes manifests, and files where the server is not the first container.

Each spec is the shape of a real, published deployment file (named above it) with the
speculative flags a user adds; the expected reading is what Docker Compose / Kubernetes run.
"""

from __future__ import annotations

from spec_debug.diagnose.checks.launch_flags import check_num_steps
from spec_debug.diagnose.launch import effective_spec, parse_launch_command

SPEC_FLAGS = ("--speculative-algorithm EAGLE3\n      --speculative-draft-model-path "
              "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B\n      --speculative-num-steps 1\n"
              "      --speculative-eagle-topk 1\n      --speculative-num-draft-tokens 2")

# sgl-project/sglang docker/compose.yaml: the server module is the compose `entrypoint`
# (it replaces the image's ENTRYPOINT) and its flags are the `command` (the image's CMD).
SGLANG_COMPOSE = f"""services:
  sglang:
    image: lmsysorg/sglang:latest
    container_name: sglang
    volumes:
      - ${{HOME}}/.cache/huggingface:/root/.cache/huggingface
    restart: always
    network_mode: host
    environment:
      HF_TOKEN: <secret>
    entrypoint: python3 -m sglang.launch_server
    command:
      --model-path meta-llama/Meta-Llama-3.1-8B-Instruct
      --host 0.0.0.0
      --port 30000
      {SPEC_FLAGS}
    ipc: host
    healthcheck:
      test: ["CMD-SHELL", "curl -f http://localhost:30000/health || exit 1"]
"""


def test_sglang_compose_entrypoint_and_command_are_one_argv():
    cfg = parse_launch_command(SGLANG_COMPOSE)
    assert parse_launch_command(SGLANG_COMPOSE.replace("${HOME}", "/home/me")).num_steps == 1
    assert cfg.engine == "sglang"
    assert cfg.target_model == "meta-llama/Meta-Llama-3.1-8B-Instruct"
    assert (cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == (1, 1, 2)
    # the container's argv, not the rest of the YAML read as shell words
    assert cfg.argv[1:4] == ("python3", "-m", "sglang.launch_server")  # after the image
    assert "ipc:" not in cfg.argv
    findings = check_num_steps(cfg, effective_spec(cfg), trained_steps=3)
    assert [f.code for f in findings] == ["SD101"]


# The vLLM k8s docs (deployment/k8s.md) ship a Service and a Deployment in one file,
# separated by `---`; the container is in the second document.
VLLM_K8S_MULTIDOC = """apiVersion: v1
kind: Service
metadata:
  name: vllm-server
spec:
  ports:
  - name: http
    port: 80
    targetPort: 8000
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm-server
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:latest
        command: ["/bin/sh", "-c"]
        args: [
          "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\\"method\\": \\"eagle3\\", \\"model\\": \\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\\", \\"num_speculative_tokens\\": 1}'"
        ]
        env:
        - name: HUGGING_FACE_HUB_TOKEN
          value: x
"""


def test_multi_document_k8s_manifest_finds_the_deployment():
    cfg = parse_launch_command(VLLM_K8S_MULTIDOC)
    assert cfg.engine == "vllm"
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"
    assert cfg.algorithm == "EAGLE3"
    assert cfg.num_steps == 1
    findings = check_num_steps(cfg, effective_spec(cfg), trained_steps=3)
    assert [f.code for f in findings] == ["SD101"]


# A model-download initContainer ahead of the server (the pattern of the vLLM production
# stack and many Helm charts): its `command` is not the server's.
VLLM_K8S_INIT_CONTAINER = """spec:
  initContainers:
  - name: download-model
    image: python:3.11
    command: ["huggingface-cli", "download", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"]
  containers:
  - name: vllm
    image: vllm/vllm-openai:v0.11.0
    args: ["meta-llama/Llama-3.1-8B-Instruct", "--speculative-config",
           '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 1}']
"""


def test_server_container_is_chosen_over_an_init_container():
    cfg = parse_launch_command(VLLM_K8S_INIT_CONTAINER)
    assert cfg.engine == "vllm"
    assert cfg.draft_model == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
    assert cfg.num_steps == 1


# A compose file with the router ahead of the worker (sglang docs, router: one
# `sglang_router.launch_router` service in front of `sglang.launch_server` workers).
SGLANG_COMPOSE_ROUTER_FIRST = """services:
  router:
    image: lmsysorg/sglang:latest
    command: python3 -m sglang_router.launch_router --worker-urls http://worker:30000
  worker:
    image: lmsysorg/sglang:latest
    command: >
      python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct
      --speculative-algorithm EAGLE3 --speculative-draft-model-path d
      --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 8
"""


def test_server_service_is_chosen_over_a_router_service():
    cfg = parse_launch_command(SGLANG_COMPOSE_ROUTER_FIRST)
    assert cfg.engine == "sglang"
    assert (cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == (3, 1, 8)
    assert effective_spec(cfg).num_draft_tokens == 4


# Kubernetes expands `$(VAR)` in `command`/`args` from the container's `env` (k8s docs,
# "Define a command and arguments": "use environment variables in arguments"); Helm charts
# pass the model and the speculative settings that way.
K8S_ENV_EXPANSION = """apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
      - name: sglang
        image: lmsysorg/sglang:v0.5.6
        env:
        - name: MODEL_ID
          value: meta-llama/Llama-3.1-8B-Instruct
        - name: DRAFT_ID
          value: jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B
        - name: SPEC_STEPS
          value: "1"
        - name: HF_TOKEN
          valueFrom:
            secretKeyRef: {name: hf, key: token}
        command: ["python3", "-m", "sglang.launch_server"]
        args: ["--model-path", "$(MODEL_ID)", "--speculative-algorithm", "EAGLE3",
               "--speculative-draft-model-path", "$(DRAFT_ID)", "--speculative-num-steps", "$(SPEC_STEPS)",
               "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "2",
               "--api-key", "$(HF_TOKEN)", "--served-model-name", "$$(literal)"]
"""


def test_k8s_env_references_in_args_are_expanded():
    cfg = parse_launch_command(K8S_ENV_EXPANSION)
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"
    assert cfg.draft_model == "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B"
    assert cfg.num_steps == 1
    assert cfg.flags["api-key"] == "$(HF_TOKEN)"  # a secret's value is not in the manifest: kept as written
    assert cfg.flags["served-model-name"] == "$(literal)"  # `$$` escapes the reference
    assert [f.code for f in check_num_steps(cfg, effective_spec(cfg), trained_steps=3)] == ["SD101"]


# The SGLang docs are notebooks (docs/advanced_features/speculative_decoding.ipynb, rendered on
# sgl-project.github.io): each server starts from a Python cell, and people paste the cell.
SGLANG_DOCS_NOTEBOOK_CELL = '''server_process, port = launch_server_cmd(
    """
python3 -m sglang.launch_server --model meta-llama/Llama-2-7b-chat-hf  --speculative-algorithm EAGLE \\
    --speculative-draft-model-path lmsys/sglang-EAGLE-llama2-chat-7B --speculative-num-steps 3 \\
    --speculative-eagle-topk 4 --speculative-num-draft-tokens 16 --cuda-graph-max-bs 8 --log-level warning
"""
)

wait_for_server(f"http://localhost:{port}", process=server_process)'''


def test_sglang_docs_notebook_cell_is_read():
    cfg = parse_launch_command(SGLANG_DOCS_NOTEBOOK_CELL)
    assert (cfg.engine, cfg.target_model, cfg.algorithm) == ("sglang", "meta-llama/Llama-2-7b-chat-hf", "EAGLE")
    assert cfg.draft_model == "lmsys/sglang-EAGLE-llama2-chat-7B"
    assert (cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == (3, 4, 16)
    assert cfg.flags["log-level"] == "warning"
    one_step = SGLANG_DOCS_NOTEBOOK_CELL.replace("--speculative-num-steps 3", "--speculative-num-steps 1").replace(
        "--speculative-eagle-topk 4 --speculative-num-draft-tokens 16",
        "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2")
    cfg = parse_launch_command(one_step)
    assert [f.code for f in check_num_steps(cfg, effective_spec(cfg), trained_steps=3)] == ["SD101"]
