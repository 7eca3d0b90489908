"""`drafter layout` on a draft saved freshly initialised (speculators' Eagle3DraftModel before
any training: every RMSNorm weight 1.0, embedding and lm_head copied from the verifier) and a
dump of its verifier captured as vLLM does. Every layout scores under what always predicting
the most frequent target token gets, yet the slot holding the final layer lifts any order it
is in ([3, 1, 2] 0.042 vs 0.022 for the configured [0, 1, 2]): the verdict said "the draft was
trained on a different layout than the one configured". Now no layout is judged, the report
carries the counts (no_skill), and SD402 stays silent."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.eagle3._world import drafter_json, informative_world, torch  # noqa: F401

from spec_debug.diagnose.checks.drafter import check_layout
from spec_debug.diagnose.steps import layout_step
from tests.diagnose.test_steps import context

world = informative_world("h62_random_layout", seed=3)


@pytest.fixture(scope="module")
def random_world(tmp_path_factory) -> Path:
    from safetensors.torch import save_file

    from tests.eagle3.speculators_world import V, save_verifier_and_draft, vllm_style_states

    root = tmp_path_factory.mktemp("h62_random_draft")
    verifier = save_verifier_and_draft(root)
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(1)
    for i in range(16):  # drafter layout reads 16 samples by default
        ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (40,), generator=generator))
        save_file({"token_ids": ids, "hidden_states": hidden}, str(root / "data" / f"hs_{i}.safetensors"))
    return root


def _most_frequent_target(root: Path) -> tuple[int, int, int]:
    """(target id, rows, rows scored) of the verifier's most frequent argmax over the draft
    vocabulary at rows 1.. of each sample (row t's state predicts position t + 1)."""
    from safetensors.torch import load_file
    from transformers import LlamaForCausalLM

    verifier = LlamaForCausalLM.from_pretrained(str(root / "target")).eval()
    t2d = load_file(str(root / "draft" / "model.safetensors"))["t2d"]
    selected = t2d.nonzero().reshape(-1)
    counted: Counter = Counter()
    for path in sorted((root / "data").glob("hs_*.safetensors")):
        final = load_file(str(path))["hidden_states"][1:, -1].float()
        with torch.no_grad():
            logits = verifier.lm_head(verifier.model.norm(final))  # [T-1, V]
        counted.update(selected[logits[:, selected].argmax(-1)].tolist())
    target_id, rows = counted.most_common(1)[0]
    return target_id, rows, sum(counted.values())


def test_a_freshly_initialised_draft_is_not_said_to_be_trained_on_another_layout(random_world):
    out = drafter_json(random_world, random_world / "data", "layout")
    best = out["ranked"][0]
    assert "trained on a different layout" not in out["verdict"], out["verdict"]
    assert "matches this dump" not in out["verdict"]
    target_id, constant, rows = _most_frequent_target(random_world)
    assert out["no_skill"] == {"best_rows": round(best["full_accuracy0"] * rows),
                               "constant_rows": constant, "rows": rows,
                               "target_id": target_id, "initial_norms": True}
    assert out["verdict"].startswith(
        f"no layout can be judged on this dump: the best, slots {best['layout']}, gets "
        f"{out['no_skill']['best_rows']} of {rows} step-0 rows right "
        f"({best['full_accuracy0']:.3f}) against {constant} for always predicting the dump's "
        f"most frequent target token (id {target_id}), not 5 more"), out["verdict"]
    assert "every RMSNorm weight of the draft is exactly 1.0" in out["verdict"]
    assert check_layout(out) == []
    # the playbook's layout step says the layout was not judged, and why
    found = layout_step.check(context(layout_step.parse({"layout": out}),
                                      {"engine": {"name": "vllm", "version": "0.11.0"}}))
    assert not [f for f in found if f.code in ("SD402", "SD704", "SD201")], found
    said = [line for f in found for line in f.evidence if "layout not judged" in line]
    assert said and "always predicting its most frequent target token" in said[0], found
    assert "(every RMSNorm weight of the draft is 1.0: saved before training)" in said[0]


def test_a_draft_that_hits_its_own_dump_keeps_its_verdict(world):
    out = drafter_json(world, world / "data", "layout")
    assert out["no_skill"] is None
    assert out["verdict"].startswith("configured layout slots [0, 1, 2] scores best"), out["verdict"]


def test_a_random_draft_with_moved_norms_is_sent_to_its_dump_and_weights(random_world, tmp_path):
    """The same random layer with every RMSNorm weight moved off 1.0 (nothing says it is
    untrained): no layout is judged either, and the verdict names what to check."""
    import shutil

    from safetensors.torch import load_file, save_file

    root = tmp_path / "moved"
    shutil.copytree(random_world, root)
    tensors = load_file(str(root / "draft" / "model.safetensors"))
    generator = torch.Generator().manual_seed(0)
    for name in [n for n in tensors if "norm" in n]:
        tensors[name] = torch.empty_like(tensors[name]).normal_(1.0, 0.3, generator=generator)
    save_file(tensors, str(root / "draft" / "model.safetensors"), metadata={"format": "pt"})
    out = drafter_json(root, root / "data", "layout")
    assert out["no_skill"] is not None and out["no_skill"]["initial_norms"] is False, out["verdict"]
    assert out["verdict"].startswith("no layout can be judged on this dump"), out["verdict"]
    assert out["verdict"].endswith("check that the dump is of the draft's own target and holds "
                                   "its aux layers, then the draft's weights"), out["verdict"]
    assert "RMSNorm" not in out["verdict"]
