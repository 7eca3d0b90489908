"""Drafts of the other kinds speculators 0.9.0 saves (models/mtp, dflash2, xpress, dspark,
dflash: SpeculatorModelConfig.register) passed to `spec-debug drafter`. Before: an MTP or
XPress draft said only "speculators_model_type is 'mtp', not 'eagle3'" with no word on what
it is or how it is served, and a dflash2 draft got the DFlash hint (serve with vLLM method
"dflash"), though vLLM's speculators reader registers eagle3, peagle, dflash and dspark
(vllm transformers_utils/configs/speculators/algos.py), not dflash2. Now each refusal names
the kind and where it runs. The configs are written by speculators' own config classes."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.commands import drafter_app  # noqa: E402

runner = CliRunner()


def _saved(tmp_path, kind):
    from speculators.models.dflash.config import DFlashSpeculatorConfig
    from speculators.models.dflash2.config import DFlash2SpeculatorConfig
    from speculators.models.dspark.config import DSparkSpeculatorConfig
    from speculators.models.mtp.config import MTPSpeculatorConfig
    from speculators.models.xpress.config import XPressSpeculatorConfig

    classes = {"mtp": MTPSpeculatorConfig, "dflash2": DFlash2SpeculatorConfig,
               "xpress": XPressSpeculatorConfig, "dspark": DSparkSpeculatorConfig,
               "dflash": DFlashSpeculatorConfig}
    out = tmp_path / kind
    classes[kind]().save_pretrained(out)
    return out


def _drafter(*args):
    result = runner.invoke(drafter_app, list(args))
    assert "Traceback" not in result.output, result.output
    return result.exit_code, " ".join(result.output.split())


@pytest.mark.parametrize("kind, what, serve", [
    ("mtp", "an MTP draft (MTPDraftModel", 'vLLM speculative_config method "mtp"'),
    ("xpress", "an XPress block draft", "registers eagle3, peagle, dflash and dspark, not xpress"),
    ("dflash2", "a DFlash2 block draft", "registers eagle3, peagle, dflash and dspark, not dflash2"),
    ("dspark", "a DSpark block draft", 'vLLM speculative_config method "dspark"'),
    ("dflash", "a DFlash block draft", 'vLLM speculative_config method "dflash"'),
])
def test_each_speculators_kind_is_named_with_where_it_is_served(tmp_path, kind, what, serve):
    draft = _saved(tmp_path, kind)
    code, text = _drafter("vocab", "--model", str(draft))
    assert code == 2, text
    assert f"speculators_model_type is '{kind}': {what}" in text, text
    assert "not an EAGLE-3 draft" in text and serve in text, text
    assert "not 'eagle3'" not in text


def test_an_unknown_kind_still_says_what_the_drafter_runs(tmp_path):
    import json

    draft = _saved(tmp_path, "mtp")
    config = json.loads((draft / "config.json").read_text())
    config["speculators_model_type"] = "medusa9"
    (draft / "config.json").write_text(json.dumps(config))
    code, text = _drafter("vocab", "--model", str(draft))
    assert code == 2
    assert "speculators_model_type is 'medusa9', not 'eagle3'" in text
    assert 'runs EAGLE-3 drafts (speculators_model_type "eagle3")' in text


@pytest.mark.parametrize("kind", ["mtp", "xpress", "dflash2"])
def test_the_configs_step_does_not_weigh_eagle3_norm_flags_on_another_kind(tmp_path, kind):
    """`spec-debug run` on such a draft gave SD701 at error ("norm_before_residual:
    checkpoint means False, vllm 0.12.0 runs True", vLLM's update_eagle3 convention) beside
    SD004, which names the kind: a false error, those flags are EAGLE-3's."""
    import shutil

    from tests.eagle3.speculators_world import save_verifier_and_draft
    from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs

    save_verifier_and_draft(tmp_path / "world")
    root = tmp_path / "world"
    shutil.rmtree(root / "draft")
    _saved(tmp_path, kind).rename(root / "draft")
    found = _configs(root, VLLM)
    codes = [f.code for f in found]
    assert "SD701" not in codes, [(f.code, f.evidence) for f in found]
    [said] = [f for f in found if f.code == "SD004"]
    assert f"speculators_model_type is '{kind}'" in said.evidence[0]
