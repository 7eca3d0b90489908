"""The hidden_layout probe given training hidden states and a target whose config.json states
num_hidden_layers 0: the layout step said the one broken file twice, an SD003 ("layout probe
not run: ...config.json: 'num_hidden_layers' is 0, expected at least 1") and an SD004 ("served
layers not planned or compared: ...config.json: num_hidden_layers 0 ...") asking for "a target
config.json whose language model names num_hidden_layers". One cause is now one finding: the
SD003 also says the served layers were not planned. A target config.json that states no layer
count while the probe still runs keeps its SD004. The world is saved by speculators 0.9.0
(tests/eagle3/speculators_world.py), the target's config.json then edited."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import layout_step  # noqa: E402
from spec_debug.probes import hidden_layout  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

SGLANG = {"engine": {"name": "sglang", "version": "0.5.4"}}


def _findings(root):
    out = hidden_layout.run({"draft_model": str(root / "draft"), "target_model": str(root / "target"),
                             "hidden_states": str(root / "data"), "engine": "sglang",
                             "engine_version": "0.5.4"})
    return layout_step.check(context(layout_step.parse(out), SGLANG))


def test_a_zero_layer_target_config_is_one_finding(tmp_path):
    root = save_informative_world(tmp_path / "w", seed=1)
    path = root / "target" / "config.json"
    config = json.loads(path.read_text())
    config["num_hidden_layers"] = 0
    path.write_text(json.dumps(config))
    findings = _findings(root)
    naming = [f for f in findings if any("num_hidden_layers" in e for e in f.evidence)]
    assert [f.code for f in naming] == ["SD003"], [(f.code, f.evidence) for f in naming]
    [line] = naming
    assert line.evidence[0].startswith("layout probe not run: ") and "'num_hidden_layers' is 0" in line.evidence[0]
    assert line.evidence[1].startswith("served layers not planned or compared either: "), line.evidence


def test_a_readable_target_says_neither(tmp_path):
    root = save_informative_world(tmp_path / "w", seed=1)
    findings = _findings(root)
    assert not [f for f in findings if f.code == "SD003" or "num_hidden_layers" in " ".join(f.evidence)], findings
