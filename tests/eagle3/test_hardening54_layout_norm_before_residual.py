"""A draft trained with norm_before_residual true whose config.json says false (what
`speculators convert` writes unless given --algorithm-kwargs), audited with `spec-debug run
hidden_state_format --host local`. The layout probe scored the configured layout both ways
(0.690 with true, 0.095 with false), ranked the layouts with true and said so in its verdict
only: the hidden_layout step raised nothing and the run PASSED over a draft that vLLM runs
near zero as configured. The step now raises SD704 naming the flag, both accuracies and the
fix; for SGLang, which never reads the flag, the fix says editing config.json does not help.
The world is saved by speculators 0.9.0 with the flag true, then its config edited."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.speculators_world import save_informative_world  # noqa: E402
from tests.ssh.test_fleet_faults import assert_clean_cli, load_run  # noqa: E402


def _run(cli, tmp_path, root, engine):
    out = tmp_path / f"runs-{engine}"
    result = cli("run", "hidden_state_format", "--host", "local", "--out", str(out),
                 "--var", f"draft_model={root / 'draft'}", "--var", f"target_model={root / 'target'}",
                 "--var", f"hidden_states={root / 'data'}", "--var", f"engine={engine}",
                 "--var", "engine_version=0.12.0" if engine == "vllm" else "engine_version=0.5.4",
                 cwd=tmp_path, timeout=300)
    assert_clean_cli(result)
    _, record = load_run(out)
    return record, [f for f in record["findings"] if f["code"] == "SD704"]


def test_a_config_flag_the_weights_contradict_is_sd704(cli, tmp_path):
    root = save_informative_world(tmp_path / "w", seed=0, draft_flags={"norm_before_residual": True})
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["norm_before_residual"] = False
    path.write_text(json.dumps(config, indent=2))

    record, [finding] = _run(cli, tmp_path, root, "vllm")
    assert record["status"] == "failed"
    assert (finding["step"], finding["severity"]) == ("hidden_layout", "error")
    assert finding["evidence"][0].startswith("config.json's norm_before_residual is false, but the draft's "
                                             "weights fit true: the configured layout's step-0 accuracy")
    assert finding["evidence"][1].startswith("set norm_before_residual to true in config.json")
    assert finding["facts"]["weights_fit"] is True and finding["facts"]["config"] is False

    _, [finding] = _run(cli, tmp_path, root, "sglang")
    assert finding["evidence"][1].startswith("SGLang never reads norm_before_residual")


def test_a_config_that_fits_its_weights_has_no_sd704(cli, tmp_path):
    root = save_informative_world(tmp_path / "w", seed=0, draft_flags={"norm_before_residual": True})
    record, found = _run(cli, tmp_path, root, "vllm")
    assert found == []
    assert record["status"] == "passed"
