"""A plain draft LM on a vLLM release that has no draft-model speculative decoding.

vllm-project/vllm#31883 (vLLM 0.13.0): `vllm serve /Qwen/Qwen3-4B --speculative_config '{"model":
"/Qwen/Qwen3-0___6B", "num_speculative_tokens": 5}'` stops at startup with NotImplementedError
("Speculative decoding with draft model is not supported yet"): V1 drafted only with trained heads
until PR #24322. The audit said nothing on those releases; now the release's refusal is said where
the release is known and the draft is surely a plain LM (method draft_model, or no method and a
read config.json that is no speculator head).
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

COMMAND = ("vllm serve /Qwen/Qwen3-4B --dtype bfloat16 --tensor-parallel-size 1 --port 8199 "
           "--speculative_config '{{\"model\": \"{draft}\", \"num_speculative_tokens\": 5{method}}}'")
QWEN3_06B = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 28}


def _problems(version, draft="/Qwen/Qwen3-0___6B", method="", config=QWEN3_06B):
    cfg = parse_launch_command(COMMAND.format(draft=draft, method=method))
    return [p for p in effective_spec(cfg, engine_version=version, draft_config=config).problems
            if "plain draft model" in p]


@pytest.mark.parametrize("version", ["0.13.0", "0.11.0", "0.12.0"])
def test_a_plain_draft_lm_on_a_release_without_draft_models_is_refused(version):
    (line,) = _problems(version)
    assert "not supported yet" in line and "does not start" in line


def test_an_explicit_draft_model_method_needs_no_config():
    assert _problems("0.13.0", method=', "method": "draft_model"', config=None)


@pytest.mark.parametrize("version, draft, config", [
    (None, "/Qwen/Qwen3-0___6B", QWEN3_06B),            # release unknown: the newest has draft models
    ("0.9.2", "/Qwen/Qwen3-0___6B", QWEN3_06B),         # V0 served it
    ("0.13.1.dev3", "/Qwen/Qwen3-0___6B", QWEN3_06B),   # a nightly may hold PR #24322
    ("0.13.0", "/Qwen/Qwen3-0___6B", None),             # config not read: an MLP speculator's would name it
    ("0.13.0", "/models/Qwen3-4B-eagle3", QWEN3_06B),   # vLLM picks eagle3 from the name
    ("0.13.0", "ibm/mlp", {"model_type": "mlp_speculator"}),
])
def test_no_refusal_claimed_where_it_is_not_sure(version, draft, config):
    assert _problems(version, draft=draft, config=config) == []
