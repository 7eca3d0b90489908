"""A Deployment whose container runs a start script a ConfigMap of the same paste holds (session 15).

`command: ["bash", "/scripts/start.sh"]` with a ConfigMap volume mounted at /scripts: each data
key is a file of that name there (k8s docs, "Configure a Pod to Use a ConfigMap", "Add ConfigMap
data to a Volume"), so the server is the one the script starts. Pasted together (`kubectl get
cm,deploy -o yaml`, a chart's rendered output) it was 'not an SGLang or vLLM server command'.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, image_release, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: sglang-start
data:
  start.sh: |
    #!/bin/bash
    set -e
    exec python3 -m sglang.launch_server \\
      --model-path /models/Llama-3.1-8B-Instruct \\
      --speculative-algorithm EAGLE3 \\
      --speculative-draft-model-path /models/sglang-EAGLE3-Llama-3.1-Instruct-8B \\
      --speculative-num-steps 1 \\
      --speculative-eagle-topk 1 \\
      --speculative-num-draft-tokens 2 \\
      --host 0.0.0.0 --port 30000
"""

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: sglang
spec:
  template:
    spec:
      containers:
        - name: sglang
          image: lmsysorg/sglang:v0.5.2-cu126
          command: {command}
          volumeMounts:
            - name: scripts
              mountPath: /scripts
      volumes:
        - name: scripts
          configMap:
            name: sglang-start
            defaultMode: 0755
"""


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("command", ['["bash", "/scripts/start.sh"]', '["/scripts/start.sh"]',
                                     '["/bin/sh", "-c", "/scripts/start.sh 2>&1 | tee /tmp/log"]'])
def test_the_container_runs_the_configmaps_script(command):
    text = CONFIGMAP + "---\n" + DEPLOYMENT.format(command=command)
    cfg = parse_launch_command(text)
    assert (cfg.engine, cfg.target_model, cfg.num_steps) == ("sglang", "/models/Llama-3.1-8B-Instruct", 1)
    assert image_release(cfg.argv, "sglang") == "0.5.2"
    launch, findings = _findings(text)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_a_script_that_starts_no_server_leaves_the_paste_unread():
    text = CONFIGMAP.replace("python3 -m sglang.launch_server", "python3 download.py") + "---\n" + (
        DEPLOYMENT.format(command='["bash", "/scripts/start.sh"]'))
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command(text)
