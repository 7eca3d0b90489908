"""The vocab step on a draft speculators 0.9.0 saved whose config names a verifier path that is
not on the host (the checkpoint copied from the training machine), run without
--var target_model. The probe's report said which verifier it looked for and that it is not
there, but the step dropped that note and said only "no target checkpoint: the draft config's
vocab_size was taken as the target vocabulary", as if the draft named none. Now the probe's note
follows that line; a draft whose config names no verifier keeps the line alone."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import vocab_step  # noqa: E402
from spec_debug.probes import vocab_maps  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402


@pytest.fixture
def copied(tmp_path):
    world = tmp_path / "world"
    save_verifier_and_draft(world)
    root = tmp_path / "copy"
    shutil.copytree(world, root)
    config = root / "draft" / "config.json"
    config.write_text(config.read_text().replace(str(world), str(root)))
    return root


def _target_lines(root):
    raw = vocab_maps.run({"draft_model": str(root / "draft"), "target_model": ""})
    found = vocab_step.check(context(vocab_step.parse(raw), {"engine": {"name": "vllm", "version": "0.12.0"}}))
    return [(f.severity, f.title, f.evidence) for f in found if f.code == "SD004"]


def test_the_missing_verifier_the_config_names_is_said(copied):
    named = str(copied / "target")
    (copied / "target").rename(copied / "elsewhere")
    assert _target_lines(copied) == [("info", "Not checked: --var target_model=DIR", [
        "no target checkpoint: the draft config's vocab_size was taken as the target vocabulary",
        f"the draft's config names its verifier {named!r} (speculators_config.verifier.name_or_path), "
        "which is neither a local directory nor in the Hugging Face cache: the maps and embedding were "
        "checked against the draft config's own vocab_size, not a target's; pass --var target_model=DIR "
        "(the target's config.json will do) to check them against the vocabulary the draft is served with"])]


def test_a_config_naming_no_verifier_keeps_its_line(copied):
    config = copied / "draft" / "config.json"
    data = json.loads(config.read_text())
    data["speculators_config"]["verifier"]["name_or_path"] = None
    config.write_text(json.dumps(data, indent=2))
    assert _target_lines(copied) == [("info", "Not checked: --var target_model=DIR",
                                      ["no target checkpoint: the draft config's vocab_size was taken as "
                                       "the target vocabulary"])]
