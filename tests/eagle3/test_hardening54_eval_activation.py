"""A draft whose decoder activation is not silu ("hidden_act": "gelu_pytorch_tanh", a config
copied from a target with another activation). `drafter eval` ran it with that activation,
as speculators trains it, and printed its acceptance with no word that vLLM and SGLang refuse
to load it (their LlamaMLP: "Unsupported activation: ... Only silu is supported for now.");
with --semantics vllm|sglang the table read as that engine's run of a draft it never loads.
The evaluation now says so, naming the key, SD706 and the fix. The world is saved by
speculators 0.9.0, then its config edited."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


def _world(tmp_path, act):
    root = save_informative_world(tmp_path / "w", seed=0)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"]["hidden_act"] = act
    path.write_text(json.dumps(config, indent=2))
    return root


@pytest.mark.parametrize("semantics", ["reference", "vllm", "sglang"])
def test_a_gelu_draft_is_said_unservable(tmp_path, semantics):
    root = _world(tmp_path, "gelu_pytorch_tanh")
    out = evaluate_drafter(root / "draft", root / "data", semantics=semantics)
    [note] = [n for n in out["notes"] if "SD706" in n]
    assert "transformer_layer_config.hidden_act" in note and "'gelu_pytorch_tanh'" in note
    assert "set transformer_layer_config.hidden_act to \"silu\"" in note
    if semantics == "reference":
        assert note.startswith("the draft's transformer_layer_config.hidden_act is 'gelu_pytorch_tanh': "
                               "evaluated with gelu_pytorch_tanh")
    else:
        assert note.startswith(f"{semantics} does not run this draft")
        assert f"not what {semantics} serves" in note


def test_a_silu_draft_has_no_activation_note(tmp_path):
    root = _world(tmp_path, "silu")
    for semantics in ("reference", "vllm"):
        out = evaluate_drafter(root / "draft", root / "data", semantics=semantics)
        assert not [n for n in out["notes"] if "SD706" in n or "activation" in n]
