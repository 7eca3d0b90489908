"""SD401's evidence line on what the standalone accuracy was measured on.

A draft speculators 0.9.0 saved, a dump of 3 files of 14, 15 and 16 tokens (45 as a user counts
them) run through drafter_accuracy with a claimed validation accuracy it misses. Before: SD401
said "standalone full_accuracy[0] = 4.8% on 42 tokens from 3 samples": 42 is the rows (a sample
of T tokens has T - 1 after speculators' shift_batch), not the 45 tokens the files hold; and of a
dump whose loss mask keeps 2 tokens a sample it still said "on 42 tokens", while step 0 was
scored on the 6 rows the mask kept (an accuracy over 6 rows read as one over 42). Now it says
the rows step 0 scored, of how many rows, from how many samples of how many tokens.
"""

from __future__ import annotations

import json
import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.diagnose.checks.drafter import check_standalone_accuracy  # noqa: E402
from spec_debug.diagnose.steps import eval_step  # noqa: E402
from spec_debug.probes import drafter_eval  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = save_informative_world(tmp_path_factory.mktemp("h74-sd401-rows"), seed=1)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["norm_before_residual"] = True  # the weights fit false: a low accuracy, SD401 fires
    path.write_text(json.dumps(config, indent=2))
    masked = root / "masked"
    masked.mkdir()
    for i in range(3):
        tensors = load_file(str(root / "data" / f"hs_{i}.safetensors"))
        mask = torch.zeros(tensors["token_ids"].shape[0], dtype=torch.long)
        mask[-2:] = 1  # the last 2 tokens: 2 rows scored a sample (row t is scored by mask[t + 1])
        tensors["loss_mask"] = mask
        save_file(tensors, str(masked / f"hs_{i}.safetensors"))
    return root


def _sd401(world, data: str):
    out = drafter_eval.run({"draft_model": str(world / "draft"), "target_model": str(world / "target"),
                            "hidden_states": str(world / data), "claimed_accuracy": "0.69"})
    findings = eval_step.check(context(eval_step.parse(out), {"engine": {"name": "vllm", "version": "0.12.0"}}))
    [sd401] = [f for f in findings if f.code == "SD401"]
    return out, sd401


def test_every_position_scored_is_said_as_rows_of_the_tokens(world):
    out, sd401 = _sd401(world, "data")
    assert out["reference"]["tokens"] == 42
    assert sd401.evidence[1] == ("standalone full_accuracy[0] = 4.8% on 42 rows (3 samples of 45 tokens: "
                                 "a sample of T tokens has T - 1 rows) (reference: target_argmax)")


def test_loss_masked_rows_are_the_ones_named(world):
    out, sd401 = _sd401(world, "masked")
    assert out["reference"]["counts"]["full_total"][0] == 6
    measured = out["reference"]["full_accuracy"][0]
    assert sd401.evidence[1] == (f"standalone full_accuracy[0] = {100 * measured:.1f}% on the 6 rows scored "
                                 "at step 0 of 42 (3 samples of 45 tokens: a sample of "
                                 "T tokens has T - 1 rows) (reference: target_argmax)")


def test_a_record_without_counts_says_rows():
    [sd401] = check_standalone_accuracy({"full_accuracy": [0.1], "tokens": 42, "samples": 3}, 0.7)
    assert sd401.evidence[1] == ("standalone full_accuracy[0] = 10.0% on 42 rows (3 samples of 45 tokens: "
                                 "a sample of T tokens has T - 1 rows) (reference: target_argmax)")
    [sd401] = check_standalone_accuracy({"full_accuracy": [0.1]}, 0.7)
    assert sd401.evidence[1] == "standalone full_accuracy[0] = 10.0% on ? rows from ? samples (reference: target_argmax)"
