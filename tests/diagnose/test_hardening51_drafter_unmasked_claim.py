"""SD401 on a speculators 0.9 dump evaluated away from its prepared dataset.

speculators 0.9 keeps the loss mask in the prepared dataset, not in hs_*.safetensors
(src/speculators/train/data.py ArrowDataset._get_raw_data), and its full_acc_0 counts only the
masked (assistant) positions (src/speculators/models/metrics.py). The drafter eval reads the
masks when the dump sits in <dataset>/hidden_states; a dump written with generate_offline_data
--output elsewhere, or copied to the GPU host without its dataset, is scored at every position,
prompt tokens included. Before: the drafter_accuracy step compared that lower accuracy with the
claimed validation accuracy and raised SD401 as an error ("the problem is in the weights, the
export/loader or the data"), with nothing saying the two were counted over other positions.
Now SD401 says so, as a warning, like a comparison against data tokens. Saved by speculators
0.9.0, evaluated by the real drafter."""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
datasets = pytest.importorskip("datasets")

from safetensors.torch import load_file  # noqa: E402

from spec_debug.diagnose.checks.drafter import EVERY_POSITION  # noqa: E402
from spec_debug.diagnose.steps import eval_step  # noqa: E402
from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from spec_debug.probes.registry import ProbeContext  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """A speculators prepared dataset whose loss masks select the rows the draft was trained
    to hit (the informative world's targets: 2 rows in 3), its hs files in hidden_states/."""
    root = tmp_path_factory.mktemp("hardening51_unmasked")
    world = save_informative_world(root / "world", seed=51)
    hidden = root / "dataset" / "hidden_states"
    shutil.copytree(world / "data", hidden)
    rows = []
    for i in range(3):
        ids = load_file(str(hidden / f"hs_{i}.safetensors"))["token_ids"].tolist()
        # row t's prediction targets position t+1: mask the positions the draft hits
        rows.append({"input_ids": ids,
                     "loss_mask": [0] + [int(t % 3 != 2) for t in range(len(ids) - 1)]})
    datasets.Dataset.from_list(rows).save_to_disk(str(root / "dataset"))
    copied = root / "copied"  # the same files, no dataset beside them
    shutil.copytree(hidden, copied)
    return world, hidden, copied


def _sd401(report: dict, claimed: float) -> list:
    facts = eval_step.parse({"reference": report, "args": {"claimed_accuracy": str(claimed)}})
    ctx = ProbeContext(step_id="eval", host="gpu01", args={}, facts=facts, host_facts=facts)
    return [f for f in eval_step.check(ctx) if f.code == "SD401"]


def test_a_dump_scored_at_every_position_says_so_in_sd401_as_a_warning(prepared):
    world, hidden, copied = prepared
    masked = evaluate_drafter(world / "draft", hidden, world / "target", steps=2)
    assert masked["loss_mask_source"] == "dataset"
    claimed = masked["full_accuracy"][0]  # what training's validation would report
    assert not _sd401(masked, claimed)

    everywhere = evaluate_drafter(world / "draft", copied, world / "target", steps=2)
    assert everywhere["loss_mask_source"] == "none"
    [finding] = _sd401(everywhere, claimed)
    assert finding.severity == "warning"  # was an error blaming weights, export or data
    assert EVERY_POSITION in finding.evidence
    assert "prompt tokens included" in EVERY_POSITION


def test_a_low_score_on_the_training_masks_stays_an_error(prepared, tmp_path):
    """The same files with a dataset whose masks select every position: scored as training
    scores them, so a claim far above is the weights' or the export's, as before."""
    world, hidden, _ = prepared
    every = tmp_path / "dataset"
    shutil.copytree(hidden, every / "hidden_states")
    rows = [{"input_ids": ids, "loss_mask": [1] * len(ids)} for ids in (
        load_file(str(every / "hidden_states" / f"hs_{i}.safetensors"))["token_ids"].tolist()
        for i in range(3))]
    datasets.Dataset.from_list(rows).save_to_disk(str(every))
    report = evaluate_drafter(world / "draft", every / "hidden_states", world / "target", steps=2)
    assert report["loss_mask_source"] == "dataset"
    [finding] = _sd401(report, 0.95)
    assert finding.severity == "error"
    assert EVERY_POSITION not in finding.evidence


def test_the_eval_table_says_every_position_was_scored(prepared):
    """`drafter eval` without --json: the table a trainer sets beside the training log's
    full_acc_0 said nothing of the positions it counted (--json has loss_mask_source)."""
    from tests.conftest import run_cli

    world, hidden, copied = prepared
    said = "every position was scored, prompt tokens included"
    for data, expected in ((copied, True), (hidden, False)):
        result = run_cli("drafter", "eval", "--model", str(world / "draft"), "--data", str(data),
                         "--target", str(world / "target"), "--steps", "2")
        assert result.code == 0, result.stderr
        assert (said in " ".join(result.stdout.split())) is expected
