"""A draft speculators 0.9.0 saved on the training machine, its config naming the verifier by
the path training used (speculators_config.verifier.name_or_path), copied to a serving host
where that path is not (the target lives elsewhere), and diagnosed without --var target_model.
Before: the configs step said "no target config.json: aux layers, context and RoPE not
compared", as if the draft named no verifier, and the user was not told the path it names is
missing. Now the line names the verifier and says it is not on the host; a draft whose named
verifier is there is still compared with it, as before."""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import configs_step  # noqa: E402
from spec_debug.probes import model_configs  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

VLLM = {"engine": {"name": "vllm", "version": "0.12.0"}}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("h73-named-verifier")
    save_verifier_and_draft(root)
    return root


def _not_checked(root):
    facts = configs_step.parse(model_configs.run({"draft_model": str(root / "draft"), "target_model": ""}))
    found = configs_step.check(context(facts, VLLM))
    return [(f.title, f.evidence) for f in found if f.code == "SD004" and "target" in " ".join(f.evidence)]


def test_a_named_verifier_not_on_the_host_is_named(world, tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(world, root)
    named = str(root / "target")
    config = root / "draft" / "config.json"
    config.write_text(config.read_text().replace(str(world), str(root)))
    (root / "target").rename(root / "elsewhere")
    assert _not_checked(root) == [(
        "Not checked: --var target_model=DIR (the target the draft was trained for, as this host holds it)",
        [f"no target config.json: the draft's config names its verifier {named!r} (speculators_config."
         "verifier.name_or_path), which is neither a directory on this host nor in its Hugging Face "
         "cache; aux layers, context and RoPE not compared"])]


def test_a_named_verifier_on_the_host_is_still_compared(world):
    facts = configs_step.parse(model_configs.run({"draft_model": str(world / "draft"), "target_model": ""}))
    assert facts["configs"]["target_source"] == "speculators_config.verifier"
    assert facts["configs"]["target_named_missing"] is None
    assert _not_checked(world) == []
