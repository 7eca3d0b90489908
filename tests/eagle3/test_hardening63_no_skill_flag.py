"""`drafter eval` (and so the drafter_accuracy playbook's eval step) on a draft that predicts
nothing: a speculators draft past its initial norms (every norm and bias perturbed, no
training) on its verifier's vLLM-style dump. When its norm_before_residual check read the other
value as "clearly better" (a draft that collapses onto one frequent token with one value gets
that gain), eval returned the check and the eval step raised SD704, an error telling the user to
set norm_before_residual in config.json, although neither value beats always predicting the
most frequent target token. The layout probe already held that reading back (its no-skill
verdict; test_hardening62_no_skill_readings) and the layout step raised no SD704: now eval
returns no check either, and says in a note that the value was not judged. The check's decision
is turned here, as in test_hardening62, since a real gain of 5 rows and 0.05 on noise is rare."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.eagle3._world import runner, torch  # noqa: F401

from spec_debug.diagnose.checks.drafter import check_norm_before_residual_fit
from spec_debug.eagle3 import layout
from spec_debug.eagle3.commands import drafter_app
from tests.eagle3.test_hardening62_no_skill_readings import _flag_reads_flipped


@pytest.fixture(scope="module")
def random_world(tmp_path_factory) -> Path:
    from safetensors.torch import save_file
    from transformers import LlamaConfig

    from tests.eagle3.speculators_world import (AUX, DV, H, V, save_perturbed_draft, save_verifier_and_draft,
                                                vllm_style_states)

    root = tmp_path_factory.mktemp("h63_no_skill_flag")
    verifier = save_verifier_and_draft(root)
    kw = {"vocab_size": V, "hidden_size": H, "intermediate_size": 64, "num_attention_heads": 4,
          "num_key_value_heads": 2, "head_dim": 8, "max_position_embeddings": 128}
    save_perturbed_draft(root / "random", root / "target", LlamaConfig(num_hidden_layers=1, **kw), aux=AUX,
                         draft_vocab=DV, vocab=V, seed_name="h63_no_skill_flag")
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(3)
    for i in range(4):
        ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (40,), generator=generator))
        save_file({"token_ids": ids, "hidden_states": hidden}, str(root / "data" / f"hs_{i}.safetensors"))
    return root


def _eval(world: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "random"), "--data", str(world / "data"),
                                         "--target", str(world / "target"), "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_flag_gain_no_better_than_a_constant_guess_is_not_an_sd704(random_world, monkeypatch):
    seen = _flag_reads_flipped(monkeypatch)
    out = _eval(random_world)
    assert seen, "the norm_before_residual check did not run"
    check = seen[0]
    assert out["norm_before_residual_check"] is None
    assert check_norm_before_residual_fit(out, "vllm") == []
    assert not any("does not fit these weights" in note for note in out["notes"]), out["notes"]
    ours, other = str(check["config"]).lower(), str(not check["config"]).lower()
    said = [note for note in out["notes"] if note.startswith(f"norm_before_residual={other} scored better")]
    assert len(said) == 1, out["notes"]
    hits = round(check["flipped_accuracy0"] * check["rows"])
    assert (f"than config.json's {ours} ({check['flipped_accuracy0']:.3f} vs {check['accuracy0']:.3f} at "
            f"step 0 on the first 4 sample(s)), but its {hits} of {check['rows']} rows right") in said[0]
    assert said[0].endswith("so config.json's norm_before_residual is not judged from it")


def test_the_check_counts_the_rows_it_scored(random_world):
    # 4 samples of 40 tokens, every position in the loss (no mask in the files): 39 step-0 rows each
    from spec_debug.eagle3.data import read_sample
    from spec_debug.eagle3.loading import load_draft

    loaded = load_draft(random_world / "random", random_world / "target")
    samples = [read_sample(path, slots=[0, 1, 2]) for path in sorted((random_world / "data").glob("hs_*.safetensors"))]
    check = layout.norm_before_residual_check(loaded, samples, None, "cpu")
    assert check["rows"] == 4 * 39
