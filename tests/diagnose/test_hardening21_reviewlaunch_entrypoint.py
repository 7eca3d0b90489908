"""A server started as a container's --entrypoint, its flags in a bash array inside another
(session 12 review).

A public Nemotron serve script (GitHub code index) builds `serve_args=(serve "$MODEL_ID" ...)`,
appends `--speculative_config.*` in a `case` arm, puts the array inside another
(`args+=(--entrypoint vllm "$IMAGE" "${serve_args[@]}")`) and runs `docker "${args[@]}"`. The
audit read no server at all: the inner array was left as the word `${serve_args[@]}`, and
`docker run --entrypoint vllm IMAGE serve MODEL` was not known as vLLM's server.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


NEMOTRON = '''MODEL_ID=nvidia/Nemotron-3.5-Nano
IMAGE=vllm/vllm-openai:v0.21.0
serve_args=(serve "$MODEL_ID"
  --host 0.0.0.0 --port 8000
  --tensor-parallel-size 1 --max-model-len 32768)
case "${SPECULATIVE_MODE:-dspark}" in
  dspark)
    serve_args+=(--speculative_config.model nvidia/Nemotron-3.5-Nano-Draft
      --speculative_config.num_speculative_tokens 1)
    ;;
  none) ;;
esac
args=(run -d --gpus all --name nemotron)
args+=(--entrypoint vllm "$IMAGE" "${serve_args[@]}")
docker "${args[@]}"
'''


def test_an_array_inside_another_and_the_entrypoint_server():
    launch, findings = _findings(NEMOTRON)
    assert launch["found"] and launch["engine"] == "vllm"
    assert launch["target_model"] == "nvidia/Nemotron-3.5-Nano"
    assert launch["draft_model"] == "nvidia/Nemotron-3.5-Nano-Draft" and launch["num_steps"] == 1
    assert "SD101" in [f.code for f in findings]


def test_entrypoint_forms():
    argv = split_command("docker run -d --entrypoint vllm -p 8000:8000 img:1 serve m --max-model-len 8192")
    launch, _ = _findings(" ".join(argv))
    assert launch["engine"] == "vllm" and launch["target_model"] == "m"
    launch, _ = _findings("podman run --entrypoint=sglang lmsysorg/sglang:v0.5.9 serve --model-path m --tp 2")
    assert launch["engine"] == "sglang" and launch["target_model"] == "m"
    # an entrypoint that is some other program is still no server
    launch, _ = _findings("docker run --entrypoint bash img:1 serve m")
    assert not launch["found"]
