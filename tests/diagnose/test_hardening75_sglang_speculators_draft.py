"""SGLang given a speculators-format EAGLE-3 draft (SD711).

Before: `--speculative-draft-model-path` naming a draft saved by speculators (config.json with
speculators_model_type, transformer_layer_config, architectures ["Eagle3DraftModel"], no top-level
model_type) passed the launch audit, or got only SD101 "serve 3 steps", while no SGLang release
reads that format: transformers' AutoConfig stops ("Unrecognized model in <dir>. Should have a
`model_type` key in its config.json") and SGLang has no Eagle3DraftModel class, so the server does
not start (sgl-project/sglang#18216). Now: an SD711 error saying so, with the fix (convert the
draft: flat LlamaForCausalLMEagle3 config and midlayer.* names, or serve it with vLLM); not for
vLLM, which reads the format, nor where the server's log shows it drafting.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.diagnose.catalog import get_doc
from spec_debug.diagnose.steps import launch_step

from spec_debug.probes.registry import ProbeContext, get_probe

pytest.importorskip("speculators")

REPO = Path(__file__).resolve().parents[2]
DRAFT_DIR = "/models/llama-eagle3"
SGLANG = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          f"--speculative-draft-model-path {DRAFT_DIR} --speculative-num-steps 1 --speculative-eagle-topk 1 "
          "--speculative-num-draft-tokens 2 --port 30000")
VLLM = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
        f"'{{\"method\": \"eagle3\", \"model\": \"{DRAFT_DIR}\", \"num_speculative_tokens\": 3}}'")


def speculators_saved_config(tmp_path) -> dict:
    """config.json as speculators 0.9.0's save_pretrained writes an EAGLE-3 draft."""
    from transformers import LlamaConfig
    from speculators.config import SpeculatorsConfig, VerifierConfig
    from speculators.models.eagle3 import Eagle3SpeculatorConfig
    from speculators.proposals.greedy import GreedyTokenProposalConfig

    layer = LlamaConfig(num_hidden_layers=1, vocab_size=128256, hidden_size=4096, intermediate_size=14336,
                        num_attention_heads=32, num_key_value_heads=8, max_position_embeddings=131072)
    spec = SpeculatorsConfig(algorithm="eagle3", proposal_methods=[GreedyTokenProposalConfig(speculative_tokens=3)],
                             default_proposal_method="greedy",
                             verifier=VerifierConfig(name_or_path="meta-llama/Llama-3.1-8B-Instruct",
                                                     architectures=["LlamaForCausalLM"]))
    cfg = Eagle3SpeculatorConfig(transformer_layer_config=layer, draft_vocab_size=32000, norm_before_residual=True,
                                 eagle_aux_hidden_state_layer_ids=[2, 16, 29], speculators_config=spec)
    cfg.save_pretrained(tmp_path / "draft")
    return json.loads((tmp_path / "draft" / "config.json").read_text())


def audit(command: str, draft: dict, log_lines: list[str] | None = None, engine: dict | None = None):
    host = {"source": "var", "cmdline": command, "models": {DRAFT_DIR: {"path": DRAFT_DIR, "config": draft}}}
    if log_lines is not None:
        host["server_log"] = {"path": "/var/log/sglang.log", "lines": log_lines}
    facts = launch_step.parse(host)
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts,
                       host_facts={**facts, **({"engine": engine} if engine else {})})
    return launch_step.check(ctx)


def test_sglang_on_a_speculators_saved_draft_does_not_start(tmp_path):
    draft = speculators_saved_config(tmp_path)
    assert "model_type" not in draft and draft["speculators_model_type"] == "eagle3"
    found = audit(SGLANG, draft, engine={"name": "sglang", "version": "0.5.12"})
    sd711 = [f for f in found if f.code == "SD711"]
    assert len(sd711) == 1 and sd711[0].severity == "error"
    assert sd711[0].title == "SGLang cannot load a speculators-format draft"
    text = " ".join(sd711[0].evidence)
    assert (f"\"ValueError: Unrecognized model in {DRAFT_DIR}. Should have a `model_type` key in its config.json\""
            in text)
    assert "LlamaForCausalLMEagle3 and not speculators' (Eagle3Speculator)" in text
    assert "the server does not start" in text
    assert sd711[0].facts == {"draft_model": DRAFT_DIR, "format": "speculators", "architectures": ["Eagle3Speculator"]}
    # a server that does not start drafts nothing: no SD101 cap beside it
    assert [f.code for f in found if f.severity == "error"] == ["SD711"]


def test_the_catalog_and_the_launch_probe_know_sd711():
    doc = get_doc("SD711")
    assert (doc.severity, doc.area) == ("error", "draft config")
    assert "midlayer." in doc.fix and "LlamaForCausalLMEagle3" in doc.fix and "vLLM" in doc.fix
    assert "SD711" in get_probe("launch_flags").codes
    assert "SD711" in (REPO / "docs" / "findings.md").read_text()


def test_vllm_reads_the_speculators_format(tmp_path):
    draft = speculators_saved_config(tmp_path)
    found = audit(VLLM, draft, engine={"name": "vllm", "version": "0.11.0"})
    assert "SD711" not in [f.code for f in found]


def test_a_server_log_that_shows_the_draft_drafting_wins_over_the_rule(tmp_path):
    draft = speculators_saved_config(tmp_path)
    lines = ["[2026-11-28 03:14:12 TP0] Decode batch. #running-req: 1, #token: 200, token usage: 0.01, "
             "accept len: 1.62, accept rate: 0.81, cuda graph: True, gen throughput (token/s): 80.12, #queue-req: 0, "]
    found = audit(SGLANG, draft, log_lines=lines, engine={"name": "sglang", "version": "0.5.12"})
    assert "SD711" not in [f.code for f in found]
    # the log that ends before any decode line proves nothing
    found = audit(SGLANG, draft, log_lines=["[2026-11-28 03:14:00] Load weight begin."],
                  engine={"name": "sglang", "version": "0.5.12"})
    assert [f.code for f in found if f.code == "SD711"] == ["SD711"]


def test_a_draft_converted_for_sglang_is_not_sd711():
    converted = json.loads((REPO / "spec_debug" / "data" / "demo" / "draft" / "config.json").read_text())
    found = audit(SGLANG, converted, engine={"name": "sglang", "version": "0.5.12"})
    assert "SD711" not in [f.code for f in found]
    sd101 = [f for f in found if f.code == "SD101"]
    # the converted config says its depth in num_lookahead_tokens, not in a speculators_config it lacks
    assert sd101[0].severity == "error"
    assert sd101[0].evidence[-1] == ("the draft was trained/exported for 3 speculative tokens "
                                     "(num_lookahead_tokens of its config.json)")
