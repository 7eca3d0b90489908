"""`vllm serve <speculator>` with a --speculative-config written next to it.

vLLM asks the served model first whatever the command says: EngineArgs.create_engine_config calls
maybe_override_with_speculators(model, ..., vllm_speculative_config=<the written config>), which,
for a speculators checkpoint, serves its verifier and drafts with the speculator. Since
vllm-project/vllm PR #42376 the written keys are laid over the speculator's own config (so
`attention_backend` or `num_speculative_tokens` can be set), `model` and `method` kept the
speculator's (vllm tests/transformers_utils/test_speculators_override.py); releases before it drop
the written config whole.

Before: a command that wrote a --speculative-config was read as written: the speculator was taken
for the target (the later steps compared the draft with the wrong model), and
`'{"attention_backend": "FLASH_ATTN"}'` alone was reported as a startup refusal (SD102 "num_speculative_tokens
missing"), though vLLM starts with the speculator's 3 tokens. Now: target = the verifier, draft = the
speculator, method and K the speculator's, a written K laid over it as the newest releases do.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

# the speculators-format config.json the reference library's save_pretrained writes (3 tokens, verifier "target")
SPECULATOR = json.loads((Path(__file__).resolve().parents[1] / "data" / "speculators_eagle3_draft" / "config.json")
                        .read_text())


def _audit(command: str):
    host = {"source": "var", "cmdline": command,
            "models": {"/ckpt/spec": {"path": "/ckpt/spec", "config": SPECULATOR}}}
    facts = launch_step.parse(host)
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("written", [
    '{"attention_backend": "FLASH_ATTN"}',
    '{"method": "eagle3", "model": "/ckpt/spec", "num_speculative_tokens": 3}',
    '{"model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"}',   # the speculator's model is kept
])
def test_the_speculator_still_drafts_for_its_verifier(written: str) -> None:
    launch, findings = _audit(f"vllm serve /ckpt/spec --speculative-config '{written}'")
    assert (launch["target_model"], launch["draft_model"], launch["target_path"], launch["draft_path"]) == (
        "target", "/ckpt/spec", "target", "/ckpt/spec")
    assert (launch["algorithm"], launch["num_steps"], launch["topk"], launch["num_draft_tokens"]) == ("EAGLE3", 3, 1, 4)
    assert launch["speculative_config"]["model"] == "/ckpt/spec"
    assert findings == []


def test_a_written_k_is_laid_over_the_speculators() -> None:
    launch, findings = _audit("vllm serve /ckpt/spec --speculative-config '{\"num_speculative_tokens\": 5, "
                              "\"attention_backend\": \"FLASH_ATTN\"}'")
    assert (launch["target_model"], launch["draft_model"], launch["num_steps"]) == ("target", "/ckpt/spec", 5)
    assert launch["speculative_config"] == {"method": "eagle3", "model": "/ckpt/spec", "num_speculative_tokens": 5,
                                            "attention_backend": "FLASH_ATTN"}
    assert findings == []


def test_one_written_token_is_still_the_sd101_cap() -> None:
    _, findings = _audit("vllm serve /ckpt/spec --speculative-config '{\"num_speculative_tokens\": 1}'")
    assert [(f.code, f.severity) for f in findings] == [("SD101", "error")]
    assert "the draft was trained/exported for 3 speculative tokens" in " ".join(findings[0].evidence)


def test_without_a_written_config_as_before() -> None:
    launch, findings = _audit("vllm serve /ckpt/spec")
    assert (launch["target_model"], launch["draft_model"], launch["num_steps"]) == ("target", "/ckpt/spec", 3)
    assert findings == []
