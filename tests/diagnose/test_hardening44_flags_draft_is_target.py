"""An EAGLE-3 launch whose draft is the target model itself.

`"method": "eagle3", "model": "<the target>"` in vLLM's --speculative-config (a copy-paste of the
served model into the draft's key), or SGLang's `--speculative-draft-model-path` equal to
`--model-path`: the engine loads the target checkpoint as the EAGLE-3 head, which it is not
(SGLang fails at startup, sgl-project/sglang#36528; vLLM has none of the head's weights). The
audit said nothing, whether or not the configs were read (a plain LlamaForCausalLM config names
no algorithm). It now reports SD103 with checkpoint TARGET.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

TARGET = "meta-llama/Llama-3.1-8B-Instruct"
DRAFT = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
TARGET_CONFIG = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
                 "num_hidden_layers": 32, "torch_dtype": "bfloat16", "vocab_size": 128256}


def _spec(model: str) -> str:
    return "'" + json.dumps({"method": "eagle3", "model": model, "num_speculative_tokens": 3}) + "'"


def _findings(command: str, models: dict | None = None):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": models or {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


VLLM_SELF = f"vllm serve {TARGET} --speculative-config {_spec(TARGET)}"
SGLANG_SELF = (f"python -m sglang.launch_server --model-path {TARGET} --speculative-algorithm EAGLE3 "
               f"--speculative-draft-model-path {TARGET}/ --speculative-num-steps 3 --speculative-eagle-topk 1 "
               "--speculative-num-draft-tokens 4")


@pytest.mark.parametrize("models", [{}, {TARGET: {"path": "/hf/llama", "config": TARGET_CONFIG}}])
def test_vllm_eagle3_with_the_target_as_model_is_sd103(models):
    [finding] = [f for f in _findings(VLLM_SELF, models) if f.code == "SD103"]
    assert finding.evidence == [
        f'launch command: "method": "eagle3" with "model": "{TARGET}" in --speculative-config, the target model itself',
        "a target is no EAGLE-3 head (a one-layer draft fed the target's aux hidden states): vLLM builds the EAGLE-3 "
        "draft from the target checkpoint, which has none of the head's weights: the server fails to load it or "
        "drafts nothing the target accepts"]
    assert finding.facts == {"served": "EAGLE3", "checkpoint": "TARGET"}


@pytest.mark.parametrize("models", [{}, {TARGET: {"path": "/hf/llama", "config": TARGET_CONFIG}}])
def test_sglang_eagle3_with_the_target_as_draft_path_is_sd103(models):
    [finding] = [f for f in _findings(SGLANG_SELF, models) if f.code == "SD103"]
    assert finding.evidence[0] == (f"launch command: --speculative-algorithm EAGLE3 with --speculative-draft-model-path "
                                   f"{TARGET}/, the target model itself")
    assert "server fails at startup (sgl-project/sglang#36528)" in finding.evidence[1]


def test_a_real_draft_stays_silent():
    assert not [f for f in _findings(VLLM_SELF.replace(_spec(TARGET), _spec(DRAFT))) if f.code == "SD103"]
    assert not [f for f in _findings(SGLANG_SELF.replace(f"{TARGET}/", DRAFT)) if f.code == "SD103"]


def test_a_hub_id_and_its_snapshot_folder_are_one_checkpoint():
    # the probe resolved both names to one folder (the Hub cache's snapshot of the target)
    snapshot = "/root/.cache/huggingface/hub/models--meta-llama--Llama-3.1-8B-Instruct/snapshots/0e9e39f"
    command = VLLM_SELF.replace(_spec(TARGET), _spec(snapshot + "/"))
    models = {TARGET: {"path": snapshot, "config": TARGET_CONFIG},
              snapshot + "/": {"path": snapshot + "/", "config": TARGET_CONFIG}}
    [finding] = [f for f in _findings(command, models) if f.code == "SD103"]
    assert finding.evidence[0] == (f'launch command: "method": "eagle3" with "model": "{snapshot}/" in '
                                   f"--speculative-config, the target's own checkpoint (both are {snapshot}/ on the host)")
