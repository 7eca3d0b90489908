"""A draft config whose decoder activation is not silu (a config copied from a target with
another activation: "hidden_act": "gelu_pytorch_tanh"). speculators and SpecForge train such a
draft with it (transformers ACT2FN), but vLLM and SGLang build the EAGLE-3 draft's layers from
their Llama decoder layer, whose LlamaMLP raises "Unsupported activation: ... Only silu is
supported for now.": the server does not start. The configs step said nothing; it now raises
SD706. The draft is saved by speculators, then its config edited."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401
from tests.eagle3.test_hardening41_wrapped_draft_unservable import SGLANG  # noqa: E402


def _with_act(tmp_path, world, act, *, flat=False):
    root = tmp_path / "act"
    shutil.copytree(world, root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    if flat:
        # the EAGLE/SpecForge layout: one flat Llama config with eagle_config
        layer = config["transformer_layer_config"]
        config = dict(layer, architectures=["LlamaForCausalLMEagle3"],
                      draft_vocab_size=config["draft_vocab_size"],
                      eagle_config={"eagle_aux_hidden_state_layer_ids":
                                    [i - 1 for i in config["eagle_aux_hidden_state_layer_ids"]]})
        target = config
    else:
        target = config["transformer_layer_config"]
    if act is None:
        target.pop("hidden_act", None)
    else:
        target["hidden_act"] = act
    path.write_text(json.dumps(config, indent=2))
    return root


@pytest.mark.parametrize("flat, key", [(False, "transformer_layer_config.hidden_act"), (True, "hidden_act")])
def test_a_draft_of_another_activation_is_sd706(tmp_path, world, flat, key):
    root = _with_act(tmp_path, world, "gelu_pytorch_tanh", flat=flat)
    for host in (VLLM, SGLANG, {}):
        [finding] = [f for f in _configs(root, host) if f.code == "SD706"]
        assert finding.severity == "error"
        assert finding.evidence[0].startswith(f"{key} is 'gelu_pytorch_tanh': vLLM's and SGLang's LlamaMLP")
        assert finding.facts == {"hidden_act": "gelu_pytorch_tanh", "key": key}


@pytest.mark.parametrize("act", ["silu", None])
def test_silu_or_the_default_is_no_sd706(tmp_path, world, act):
    root = _with_act(tmp_path, world, act)
    for host in (VLLM, SGLANG):
        assert "SD706" not in [f.code for f in _configs(root, host)]
    assert "SD706" not in [f.code for f in _configs(world, VLLM)]
