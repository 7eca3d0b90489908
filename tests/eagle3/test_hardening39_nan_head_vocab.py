"""A draft saved by speculators 0.9.0 without load_verifier_weights(): speculators initialises
embed_tokens and lm_head to NaN until that call copies the verifier's (EAGLE3.md section 8), so
the file holds a NaN embedding and head. `drafter vocab` (and the playbooks' vocab step) read
only shapes and maps and said every check "ok" (exit 0), while every logit the engines compute
from that head is NaN; eval and layout refuse the draft, as steps that could not run. Now the
embed_rows and lm_head_rows checks read the rows they sample and fail with SD303 and the fix."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import vocab_step  # noqa: E402
from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from spec_debug.probes import vocab_maps  # noqa: E402
from tests.diagnose.test_steps import codes, context  # noqa: E402
from tests.eagle3.speculators_world import DV, V, save_verifier_and_draft  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    root = tmp_path_factory.mktemp("nan-head")
    save_verifier_and_draft(root)
    # the same draft, saved as speculators leaves it before load_verifier_weights()
    config = Eagle3SpeculatorConfig.from_pretrained(str(root / "draft"))
    model = Eagle3DraftModel(config)
    selected = torch.sort(torch.randperm(V, generator=torch.Generator().manual_seed(3))[:DV]).values
    t2d = torch.zeros(V, dtype=torch.bool)
    t2d[selected] = True
    model.load_vocab_mappings(t2d, selected - torch.arange(DV))
    assert torch.isnan(model.lm_head.weight).all()  # what this test is about
    model.eval().save_pretrained(root / "unloaded")
    return root


def _failed(report):
    return {check["name"]: [issue["message"] for issue in check["issues"]]
            for check in report["checks"] if not check["ok"]}


def test_the_draft_as_saved_after_load_verifier_weights_passes(world):
    assert check_drafter_vocab(world / "draft", world / "target")["ok"] is True


def test_a_nan_embedding_and_head_fail_their_row_checks(world):
    report = check_drafter_vocab(world / "unloaded", world / "target")
    assert report["ok"] is False
    failed = _failed(report)
    assert set(failed) == {"embed_rows", "lm_head_rows"}
    [embed] = failed["embed_rows"]
    [head] = failed["lm_head_rows"]
    assert embed.startswith("embed_tokens.weight holds NaN/Inf in 32 of the 32 rows sampled")
    assert head.startswith("lm_head.weight holds NaN/Inf in 32 of the 32 rows sampled: the draft "
                           "logits from such rows are NaN or Inf, in every engine")
    assert "call load_verifier_weights() and save it again" in head


def test_the_vocab_step_and_the_cli_say_sd303(world):
    raw = vocab_maps.run({"draft_model": str(world / "unloaded"), "target_model": str(world / "target")})
    assert ("SD303", "error") in codes(vocab_step.check(context(vocab_step.parse(raw))))
    done = subprocess.run([sys.executable, "-m", "spec_debug", "drafter", "vocab", "--model",
                           str(world / "unloaded"), "--target", str(world / "target")],
                          capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env={**os.environ, "PYTHONPATH": ROOT, "COLUMNS": "400"})
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "lm_head_rows   FAIL" in done.stdout


def test_a_few_nan_rows_are_a_damaged_file_not_a_missing_copy(world, tmp_path):
    import shutil

    from safetensors.torch import load_file, save_file

    draft = tmp_path / "draft"
    shutil.copytree(world / "draft", draft)
    state = load_file(draft / "model.safetensors")
    state["lm_head.weight"][0] = float("inf")  # draft id 0 is always among the sampled rows
    save_file(state, str(draft / "model.safetensors"), metadata={"format": "pt"})
    [head] = _failed(check_drafter_vocab(draft, world / "target"))["lm_head_rows"]
    assert head.startswith("lm_head.weight holds NaN/Inf in 1 of the 32 rows sampled")
    assert "the file is damaged or the training diverged" in head
    assert "load_verifier_weights" not in head
