"""A `sh -c` string's "$@" is the words after it (session 13).

`sh -c STRING NAME A B` runs STRING with $0=NAME and "$@"=A B (bash(1) OPTIONS, -c). A public
GLM-5.2 EXL3 model card on GitHub gives its compose service as `entrypoint: [/bin/sh, -c,
"unset NCCL_GRAPH_FILE ... && exec vllm serve \\"$@\\"", --]` with the model and every flag in
`command:` (compose appends command to the entrypoint). The audit read `vllm serve '$@'`: a
server with no flags, no speculation and no finding, and dropped the release image.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import image_release, parse_launch_command, split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

# The service as published, with fewer environment entries and flags, and a one-token MTP.
COMPOSE = """services:
  vllm:
    image: vllm/vllm-openai:v0.21.0
    environment:
      - VLLM_WORKER_MULTIPROC_METHOD=spawn
    entrypoint:
      - /bin/sh
      - -c
      - "unset NCCL_GRAPH_FILE NCCL_GRAPH_DUMP_FILE VLLM_B12X_MLA_EXTEND_MAX_CHUNKS && exec vllm serve \\"$@\\""
      - --
    command:
      - /model
      - --served-model-name=g52h
      - --trust-remote-code
      - --tensor-parallel-size=4
      - '--compilation-config={"cudagraph_mode":"FULL_AND_PIECEWISE","custom_ops":["all"]}'
      - --max-model-len=128128
      - '--speculative-config={"method":"mtp","num_speculative_tokens":1,"moe_backend":"triton","draft_sample_method":"greedy"}'
      - --host=0.0.0.0
      - --port=8000
"""


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_the_compose_command_list_is_the_servers_words():
    cfg = parse_launch_command(COMPOSE)
    assert cfg.engine == "vllm" and cfg.target_model == "/model" and cfg.tp == 4
    assert cfg.algorithm == "MTP" and cfg.num_steps == 1
    assert image_release(cfg.argv, "vllm") == "0.21.0"
    assert cfg.env == {"VLLM_WORKER_MULTIPROC_METHOD": "spawn"}


def test_one_mtp_token_through_the_entrypoint_is_audited():
    launch, findings = _findings(COMPOSE)
    assert launch["found"] and launch["num_steps"] == 1
    assert [f.code for f in findings] == ["SD101"]


def test_a_shell_string_in_a_script_gets_its_arguments():
    assert split_command("bash -c 'exec vllm serve \"$@\"' _ m --speculative-config '{\"method\": \"eagle3\"}'") == [
        "exec", "vllm", "serve", "m", "--speculative-config", '{"method": "eagle3"}']
    # no words after the string (or $0 alone): "$@" is left as written
    assert split_command("bash -c 'exec vllm serve \"$@\"' _")[-1] == "$@"
