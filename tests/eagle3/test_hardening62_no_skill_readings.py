"""`drafter layout` on a draft that predicts nothing from any order of its dump's slots (a
freshly initialised speculators draft on its verifier's vLLM-style dump: no_skill). When the
norm_before_residual check or the final-slot check read the other value / another slot as
"clearly better" (a gain a random draft can get by chance), the verdict opened with "config.json's
norm_before_residual=false does not fit these weights ... set it to true" (or "slot k holds the
target's final layer ... write it again") and only then said the draft predicts nothing. Now
the no-skill verdict leads and those readings follow as noise, with the scores they read.
The check's decision is turned here (a real gain of 5 rows and 0.05 on noise is rare, and
this dump of 4 samples is what makes the verdict no-skill rather than "does not confirm")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.eagle3._world import drafter_json, torch  # noqa: F401

from spec_debug.eagle3 import layout

NOISE = ("which scored better, but no better than that constant prediction: noise as well, so "
         "neither the dump's final slot nor config.json's norm_before_residual is judged from it")


@pytest.fixture(scope="module")
def random_world(tmp_path_factory) -> Path:
    from safetensors.torch import save_file

    from tests.eagle3.speculators_world import V, save_verifier_and_draft, vllm_style_states

    root = tmp_path_factory.mktemp("h62_no_skill_readings")
    verifier = save_verifier_and_draft(root)
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(2)
    for i in range(4):  # few rows: the best layout leads the configured one clearly, by noise
        ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (40,), generator=generator))
        save_file({"token_ids": ids, "hidden_states": hidden}, str(root / "data" / f"hs_{i}.safetensors"))
    return root


def _flag_reads_flipped(monkeypatch) -> list[dict]:
    """The real check, with its decision turned to the other value (as a chance gain would)."""
    seen: list[dict] = []
    real = layout.norm_before_residual_check

    def flipped(*args, **kwargs):
        check = real(*args, **kwargs)
        check = {**check, "ranked_with": not check["config"]}
        seen.append(check)
        return check

    monkeypatch.setattr(layout, "norm_before_residual_check", flipped)
    return seen


def test_a_flag_reading_on_a_draft_without_skill_follows_the_no_skill_verdict(random_world, monkeypatch):
    seen = _flag_reads_flipped(monkeypatch)
    out = drafter_json(random_world, random_world / "data", "layout")
    assert out["no_skill"] is not None, out["verdict"]
    check = seen[0]
    assert out["norm_before_residual_check"] == check
    assert out["verdict"].startswith("no layout can be judged on this dump"), out["verdict"]
    assert "does not fit these weights" not in out["verdict"]
    ours, other = str(check["config"]).lower(), str(not check["config"]).lower()
    assert out["verdict"].endswith(
        f"; the layouts were ranked with norm_before_residual={other} "
        f"({check['flipped_accuracy0']:.3f} vs {check['accuracy0']:.3f} with config.json's "
        f"{ours}), " + NOISE), out["verdict"]


def test_the_final_slot_reading_is_said_the_same_way_and_nothing_when_none_was_used():
    final = {"final_slot": 0, "final_slot_accuracy0": 0.061, "layout": [1, 2, 3],
             "accuracy0": 0.004, "num_slots": 4, "order": [1, 2, 3, 0]}
    assert layout._unjudged_readings(final, None) == (
        "; the layouts were ranked with slot 0's states as the targets (step-0 accuracy 0.061 "
        "vs 0.004 with slot 3's), " + NOISE)
    assert layout._unjudged_readings(None, None) == ""
