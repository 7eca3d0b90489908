"""The vocab step over a draft folder the engines load no weight file from (only
config.json: its weights never saved). `run perf_regression` gave SD710 in the configs step,
then the vocab step failed again as an SD003 warning ("probe vocab_maps failed on the host:
CheckpointError: ... no model.safetensors"): one cause said twice, the second time as a step
that could not run. It now says, as the eval step does, that it did not run because of the
SD710 above (info), and gives SD710 itself where no configs step ran. The world is saved by
speculators 0.9.0 (tests/eagle3/speculators_world.py), then its weights removed."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import vocab_step  # noqa: E402
from spec_debug.probes import vocab_maps  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture
def root(tmp_path):
    return save_informative_world(tmp_path / "w", seed=0)


def _vocab(root, host_facts=None):
    raw = vocab_maps.run({"draft_model": str(root / "draft"), "target_model": str(root / "target")})
    return vocab_step.check(context(vocab_step.parse(raw), host_facts or {}))


def test_after_the_configs_steps_sd710_the_vocab_step_only_says_it_did_not_run(root):
    (root / "draft" / "model.safetensors").unlink()
    [finding] = _vocab(root, {"configs": {"raised": ["SD710"]}})
    assert (finding.code, finding.severity) == ("SD004", "info")
    assert finding.evidence == [
        "vocabulary maps not checked: vLLM and SGLang cannot load the draft's weights (SD710, "
        f"reported above): {root / 'draft'}: no model.safetensors, *.safetensors or "
        "pytorch_model.bin; vLLM and SGLang find no weights here either (they load "
        "*.safetensors, *.bin or *.pt files only: \"Cannot find any model weights\")"]


def test_without_a_configs_step_the_vocab_step_gives_sd710(root):
    (root / "draft" / "model.safetensors").unlink()
    [finding] = _vocab(root)
    assert (finding.code, finding.severity) == ("SD710", "error")
    assert finding.title == "The draft folder holds no weight file the engines load"


def test_the_draft_with_its_weights_is_checked(root):
    assert [f.code for f in _vocab(root) if f.code in ("SD003", "SD004", "SD710")] == []
