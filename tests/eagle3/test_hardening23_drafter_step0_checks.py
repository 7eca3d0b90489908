"""The step-0 checks `drafter eval` runs beside the evaluation read enough rows.

- The final-slot check (the target's final layer stored in slot 0, not last) scored the first
  4 samples only. A weak draft (step-0 accuracy 0.18) over a dump whose first samples are
  short made 2-3 hits there, under the check's significance margins: eval said nothing while
  `drafter layout` (16 samples) named slot 0. The checks now read samples until they hold
  1024 scored rows, at most as many as layout probes.
- The norm_before_residual check had the gap the final-slot check had (ae0071d): with no
  loss mask selecting any position the evaluation scores every position, but the check
  scored 0 rows against 0 rows and never named a wrong config.json value.
Built with the real library: speculators 0.9.0's Eagle3DraftModel over a transformers Llama
verifier, states captured as vLLM captures them (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import (  # noqa: E402
    V, save_informative_world, save_verifier_and_draft, vllm_style_states)

runner = CliRunner()
HIT_EVERY = 8  # one row in 8 carries a target the draft predicts: a weak draft


def _draft_states(model, hidden: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    """The draft's own step-0 pre-norm states for a sample (row t scores row t + 1)."""
    T = hidden.shape[0] - 1
    aux, tokens = hidden[:-1, :-1].reshape(1, T, -1), ids[1:][None]
    states = []
    hook = model.norm.register_forward_hook(lambda _m, inp, _o: states.append(inp[0].detach()))
    try:
        with torch.no_grad():
            model(hidden_states=aux, input_ids=tokens, document_ids=torch.zeros_like(tokens),
                  ttt_steps=1)
    finally:
        hook.remove()
    return states[0][0]


@pytest.fixture(scope="module")
def weak_world(tmp_path_factory) -> Path:
    """16 samples, the first 4 of 6 tokens and the rest of 20; one row in HIT_EVERY has the
    draft's own state as the verifier's final one. data_final_first/ stores the same states
    as [final, l2, l4, l5]."""
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    root = tmp_path_factory.mktemp("h23_step0_checks")
    verifier = save_verifier_and_draft(root)
    config = Eagle3SpeculatorConfig.from_pretrained(str(root / "draft"))
    config.transformer_layer_config._attn_implementation = "eager"
    model = Eagle3DraftModel.from_pretrained(str(root / "draft"), config=config).eval()
    generator = torch.Generator().manual_seed(5)
    (root / "data_final_first").mkdir()
    for i in range(16):
        length = 6 if i < 4 else 20
        ids, hidden = vllm_style_states(verifier,
                                        torch.randint(0, V, (length,), generator=generator))
        hidden = hidden.float()
        own = _draft_states(model, hidden, ids)
        rows = torch.arange(own.shape[0]) % HIT_EVERY == 0
        hidden[1:, -1][rows] = own[rows]
        hidden = hidden.to(torch.bfloat16)
        save_file({"token_ids": ids, "hidden_states": hidden[:, [3, 0, 1, 2]].contiguous()},
                  str(root / "data_final_first" / f"hs_{i:02d}.safetensors"))
    return root


def _eval(root: Path, data: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(data), "--target", str(root / "target"),
                                         "--steps", "1", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_eval_names_the_final_layer_in_slot_0_for_a_weak_draft(weak_world):
    out = _eval(weak_world, weak_world / "data_final_first")
    assert out["full_accuracy"][0] < 0.05
    notes = [n for n in out["notes"] if "holds the target's final layer" in n]
    assert len(notes) == 1, out["notes"]
    assert notes[0].startswith("slot 0 holds the target's final layer, not slot 3")
    assert "hidden_states[:, [1, 2, 3, 0]]" in notes[0]
    assert notes[0].endswith("(step 0 on the first 16 sample(s))")


def test_norm_before_residual_is_named_when_no_loss_mask_selects_a_position(tmp_path):
    root = save_informative_world(tmp_path / "w", seed=7,
                                  draft_flags={"norm_before_residual": True})
    config_path = root / "draft" / "config.json"
    config = json.loads(config_path.read_text())
    config["norm_before_residual"] = False  # what speculators convert writes without the kwarg
    config_path.write_text(json.dumps(config))
    empty = tmp_path / "empty_masks"
    empty.mkdir()
    for path in sorted((root / "data").glob("*.safetensors")):
        tensors = load_file(str(path))
        tensors["loss_mask"] = torch.zeros(tensors["token_ids"].shape[0], dtype=torch.bool)
        save_file(tensors, str(empty / path.name))
    out = _eval(root, empty)
    assert any("every position was scored instead" in n for n in out["notes"])
    flagged = [n for n in out["notes"] if "norm_before_residual=false does not fit" in n]
    assert len(flagged) == 1 and "set it to true" in flagged[0], out["notes"]
    # the same as with masks that select every position
    plain = _eval(root, root / "data")
    assert [n for n in plain["notes"] if "does not fit" in n] == flagged


def test_a_draft_that_scores_well_keeps_the_few_samples_of_its_flag_check(tmp_path,
                                                                          monkeypatch):
    """The wider read costs passes over more samples: only a draft scoring under the
    final-slot threshold (where a wrong flag or slot is a likely cause) pays for it."""
    from spec_debug.eagle3 import api

    root = save_informative_world(tmp_path / "good", seed=3)
    asked = []
    real = api.iter_samples

    def spy(*args, **kwargs):
        asked.append(kwargs.get("max_samples"))
        return real(*args, **kwargs)

    monkeypatch.setattr(api, "iter_samples", spy)
    out = _eval(root, root / "data")
    assert out["full_accuracy"][0] > 0.25
    assert asked[-1] == api._FEW_CHECK_SAMPLES  # the flag check's read, after the evaluation
