"""drafter_accuracy (one drafter_eval step) on a draft speculators 0.9.0 saved whose config
names a verifier path the host lacks (the checkpoint copied from the training machine), with a
claimed validation accuracy and no --var target_model. The evaluation scored the draft against
the data's next tokens and its notes said why (the named verifier is not there). Before: SD401
said only "measured against the next data token (no target head given)", hiding that the draft
names a target, and which. Now SD401 carries the evaluation's note naming it."""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import eval_step  # noqa: E402
from spec_debug.probes import drafter_eval  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def copied(tmp_path_factory):
    base = tmp_path_factory.mktemp("h73-sd401-verifier")
    world = save_informative_world(base / "world", seed=1)
    root = base / "copy"
    shutil.copytree(world, root)
    config = root / "draft" / "config.json"
    config.write_text(config.read_text().replace(str(world), str(root)))
    (root / "target").rename(root / "elsewhere")
    return root


def test_sd401_names_the_verifier_the_config_gives_and_the_host_lacks(copied):
    out = drafter_eval.run({"draft_model": str(copied / "draft"), "target_model": "",
                            "hidden_states": str(copied / "data"), "claimed_accuracy": "0.69"})
    assert out["reference"]["reference"] == "data_tokens"
    [sd401] = [f for f in eval_step.check(context(eval_step.parse(out))) if f.code == "SD401"]
    assert sd401.evidence[2:4] == [
        "measured against the next data token (no target head given): pass the target checkpoint to "
        "compare like with like",
        f"the draft's config names its verifier {str(copied / 'target')!r} (speculators_config.verifier."
        "name_or_path), which is neither a local directory nor in the Hugging Face cache: scored "
        "against the data's next tokens; pass --var target_model=DIR to score against the verifier's "
        "argmax"]
