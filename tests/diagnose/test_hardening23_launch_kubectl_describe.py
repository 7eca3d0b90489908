"""`kubectl describe pod` / `deployment` output pasted as the launch (session 14).

The usual way a Kubernetes-served engine's command reaches an issue. It was read as shell words:
a `vllm serve` with no flags (the `Args:` lines after it unread as its own), so a one-token cap
in `--speculative-config` went without SD101. kubectl prints each command and args element on
its own line, three levels (two spaces each) under the container, and an element with newlines
one line per line (k8s.io/kubectl pkg/describe/describe.go, describeContainerCommand); the
image and environment are the container's `Image:` and `Environment:` fields.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import image_release, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

POD = """Name:             vllm-eagle-6d9c7b8f5-x2k4p
Namespace:        default
Priority:         0
Node:             gpu-node-1/10.0.0.12
Start Time:       Thu, 02 Oct 2025 09:14:11 +0000
Labels:           app=vllm-eagle
Status:           Running
IP:               10.244.1.17
Controlled By:  ReplicaSet/vllm-eagle-6d9c7b8f5
Containers:
  vllm:
    Container ID:  containerd://4f2c9c1e3b7a
    Image:         vllm/vllm-openai:v0.11.0
    Image ID:      docker.io/vllm/vllm-openai@sha256:9d1a3c5e
    Port:          8000/TCP
    Host Port:     0/TCP
    Command:
      vllm
      serve
    Args:
      meta-llama/Llama-3.1-8B-Instruct
      --speculative-config
      {"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":1}
      --port
      8000
    State:          Running
      Started:      Thu, 02 Oct 2025 09:14:20 +0000
    Ready:          True
    Restart Count:  0
    Limits:
      nvidia.com/gpu:  1
    Requests:
      nvidia.com/gpu:  1
    Environment:
      VLLM_USE_V1:  1
      HF_TOKEN:     <set to the key 'token' in secret 'hf-token'>  Optional: false
    Mounts:
      /root/.cache/huggingface from cache (rw)
Conditions:
  Type              Status
  Ready             True
Events:            <none>
"""

# the same container started by `/bin/sh -c` with a multi-line script
POD_SHELL = """Name:             vllm-eagle-6d9c7b8f5-x2k4p
Namespace:        default
Priority:         0
Node:             gpu-node-1/10.0.0.12
Start Time:       Thu, 02 Oct 2025 09:14:11 +0000
Labels:           app=vllm-eagle
Status:           Running
IP:               10.244.1.17
Controlled By:  ReplicaSet/vllm-eagle-6d9c7b8f5
Containers:
  vllm:
    Container ID:  containerd://4f2c9c1e3b7a
    Image:         vllm/vllm-openai:v0.11.0
    Image ID:      docker.io/vllm/vllm-openai@sha256:9d1a3c5e
    Port:          8000/TCP
    Host Port:     0/TCP
    Command:
      /bin/sh
      -c
    Args:
      set -e
      pip list | grep vllm
      exec vllm serve meta-llama/Llama-3.1-8B-Instruct \\
        --speculative-config '{"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":1}' \\
        --port 8000
    State:          Running
      Started:      Thu, 02 Oct 2025 09:14:20 +0000
    Ready:          True
    Restart Count:  0
    Limits:
      nvidia.com/gpu:  1
    Requests:
      nvidia.com/gpu:  1
    Environment:
      VLLM_USE_V1:  1
      HF_TOKEN:     <set to the key 'token' in secret 'hf-token'>  Optional: false
    Mounts:
      /root/.cache/huggingface from cache (rw)
Conditions:
  Type              Status
  Ready             True
Events:            <none>
"""


def _deployment(pod: str) -> str:
    """`kubectl describe deployment`: the containers nested under `Pod Template:`."""
    block = pod[pod.index("Containers:"):pod.index("Conditions:")]
    return ("Name:                   vllm-eagle\nNamespace:              default\nPod Template:\n"
            "  Labels:  app=vllm-eagle\n" + "".join(f"  {line}\n" if line else "\n" for line in block.splitlines())
            + "Conditions:\n  Type  Status\n")


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_a_pods_description_is_its_containers_command():
    cfg = parse_launch_command(POD)
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 1)
    assert cfg.env == {"VLLM_USE_V1": "1"}  # (HF_TOKEN comes from a secret: no value shown)
    assert image_release(list(cfg.argv), "vllm") == "0.11.0"
    launch, findings = _findings(POD)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_a_shell_script_printed_line_by_line_is_one_script_again():
    cfg = parse_launch_command(POD_SHELL)
    assert (cfg.target_model, cfg.algorithm, cfg.num_steps) == ("meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 1)


def test_a_deployments_description():
    cfg = parse_launch_command(_deployment(POD))
    assert (cfg.algorithm, cfg.num_steps) == ("EAGLE3", 1)
