"""`docker inspect` and `kubectl get pod -o json` output pasted as the launch (session 14).

Both are how a running container's command is usually shown in an issue. Their JSON was read
as shell words: `docker inspect` became a vLLM server whose argv was `VLLM_USE_V1=1,` `Image:`
`vllm/vllm-openai:v0.11.0,` and a Pod's JSON a `vllm serve` with no flags, both with no
speculative config and no finding (a one-token cap went unseen). Now a container's process is
Path + Args, its image and environment Config.Image / Config.Env (Docker Engine API,
ContainerInspect), and a Pod's JSON is read as its YAML is.
"""

from __future__ import annotations

import json

from spec_debug.diagnose.launch import image_release, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SPEC = '{"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":1}'
ARGS = ["meta-llama/Llama-3.1-8B-Instruct", "--speculative-config", SPEC, "--port", "8000"]

DOCKER_INSPECT = json.dumps([{
    "Id": "4f2c9c1e3b7a", "Created": "2025-10-02T09:14:11.123456789Z",
    "Path": "vllm", "Args": ["serve", *ARGS],
    "State": {"Status": "running", "Running": True}, "Image": "sha256:9d1a3c5e", "Name": "/vllm-eagle",
    "Config": {"Hostname": "4f2c9c1e3b7a",
               "Env": ["HF_HOME=/root/.cache/huggingface", "VLLM_USE_V1=1", "PATH=/usr/local/bin:/usr/bin"],
               "Cmd": ARGS, "Image": "vllm/vllm-openai:v0.11.0", "Entrypoint": ["vllm", "serve"]},
}], indent=4)

POD_JSON = json.dumps({
    "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "vllm-0"},
    "spec": {"containers": [{
        "name": "vllm", "image": "vllm/vllm-openai:v0.11.0", "command": ["vllm", "serve"], "args": ARGS,
        "env": [{"name": "VLLM_USE_V1", "value": "1"}],
        "livenessProbe": {"exec": {"command": ["cat", "/tmp/healthy"]}}}]},
}, indent=2)


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_docker_inspect_is_the_containers_process():
    cfg = parse_launch_command(DOCKER_INSPECT)
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 1)
    assert cfg.env == {"VLLM_USE_V1": "1"}  # the engine's variables only
    assert image_release(list(cfg.argv), "vllm") == "0.11.0"
    launch, findings = _findings(DOCKER_INSPECT)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_an_image_inspect_is_its_entrypoint_and_cmd():
    image = json.dumps([{"Id": "sha256:9d1a3c5e", "RepoTags": ["vllm/vllm-openai:v0.11.0"],
                         "Config": {"Entrypoint": ["vllm", "serve"], "Cmd": ARGS, "Image": "vllm/vllm-openai:v0.11.0"}}])
    cfg = parse_launch_command(image)
    assert (cfg.algorithm, cfg.num_steps) == ("EAGLE3", 1)


def test_a_pods_json_is_read_as_its_yaml():
    cfg = parse_launch_command(POD_JSON)
    assert (cfg.engine, cfg.algorithm, cfg.num_steps) == ("vllm", "EAGLE3", 1)
    assert cfg.env == {"VLLM_USE_V1": "1"}
    launch, findings = _findings(POD_JSON)
    assert launch["found"] and "SD101" in [f.code for f in findings]
