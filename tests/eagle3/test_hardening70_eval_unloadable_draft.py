"""`spec-debug run drafter_accuracy` over a draft folder the engines load no weights from
(its weights never saved: only config.json). vLLM and SGLang stop with "Cannot find any model
weights" (vLLM 0.34.0 model_loader/default_loader.py _prepare_weights, SGLang 0.5.23
model_loader/loader.py).

Before: the playbook (one step, drafter_eval; no configs step to give SD710) said
"PASSED: 0 error(s), 1 warning(s) · nothing was checked": its eval probe failed as an SD003
warning. The eval step now gives SD710 (error) with the drafter's own words and fix, and the
run fails. Where an earlier step already gave SD710 (perf_regression's configs step) the eval
step says only that it did not run, as for a config that misfits its weights. The world is
saved by speculators 0.9.0 (tests/eagle3/speculators_world.py), then damaged."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import eval_step  # noqa: E402
from spec_debug.probes import drafter_eval  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402
from tests.ssh.test_fleet_faults import load_run  # noqa: E402

@pytest.fixture
def root(tmp_path):
    return save_informative_world(tmp_path / "w", seed=0)


def _eval(root, host_facts=None):
    raw = drafter_eval.run({"draft_model": str(root / "draft"), "hidden_states": str(root / "data")})
    return eval_step.check(context(eval_step.parse(raw), host_facts or {}))


def test_a_draft_folder_with_no_weights_fails_the_drafter_accuracy_run(cli, tmp_path, root):
    (root / "draft" / "model.safetensors").unlink()
    out = tmp_path / "runs"
    result = cli("run", "drafter_accuracy", "--host", "local", "--out", str(out),
                 "--var", f"draft_model={root / 'draft'}", "--var", f"hidden_states={root / 'data'}",
                 cwd=tmp_path, timeout=300)
    said = result.stdout + result.stderr
    assert "PASSED" not in said, said
    assert result.code != 0, said
    _, record = load_run(out)
    [finding] = [f for f in record["findings"] if f["code"] == "SD710"]
    assert finding["severity"] == "error"
    assert finding["title"] == "The draft folder holds no weight file the engines load"
    assert finding["evidence"] == [
        f"{root / 'draft'}: no model.safetensors, *.safetensors or pytorch_model.bin; vLLM and "
        "SGLang find no weights here either (they load *.safetensors, *.bin or *.pt files only: "
        "\"Cannot find any model weights\")"]
    assert [f["code"] for f in record["findings"]] == ["SD710"]


def test_after_the_configs_steps_sd710_the_eval_step_only_says_it_did_not_run(root):
    (root / "draft" / "model.safetensors").unlink()
    [finding] = _eval(root, {"configs": {"raised": ["SD710"]}})
    assert (finding.code, finding.severity) == ("SD004", "info")
    assert finding.evidence[0].startswith(
        "standalone accuracy not measured: vLLM and SGLang cannot load the draft's weights "
        "(SD710, reported above): ")


def test_a_draft_with_its_weights_is_measured(root):
    assert [f.code for f in _eval(root) if f.code in ("SD003", "SD710")] == []
