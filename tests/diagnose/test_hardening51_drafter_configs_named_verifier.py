"""The configs step on a draft whose config names its verifier, run without --var target_model.

`vllm serve <draft>` takes the verifier from speculators_config.verifier.name_or_path, and the
drafter probes (drafter eval, vocab, layout) use that target when none is given. The
model_configs probe did not: on a host holding it, perf_regression's configs step said "no
target config.json: aux layers, context and RoPE not compared", so the served-vs-trained layer
check (SD201, the incident's fault) did not run while the next steps scored the draft against
that very target. Now the probe takes the named verifier too (a path now holding a model of
another width is not taken), and the facts say where the target came from. Saved by
speculators 0.9.0."""

from __future__ import annotations

import json
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.steps import configs_step  # noqa: E402
from spec_debug.probes import model_configs  # noqa: E402
from spec_debug.probes.registry import ProbeContext  # noqa: E402
from tests.eagle3.speculators_world import AUX, NL, save_verifier_and_draft  # noqa: E402

NO_TARGET = "no target config.json: aux layers, context and RoPE not compared"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    root = tmp_path_factory.mktemp("hardening51_configs")
    save_verifier_and_draft(root)
    return root


def _configs(draft, target="") -> tuple[dict, list[str]]:
    host = model_configs.run({"draft_model": str(draft), "target_model": target})
    facts = configs_step.parse(host)
    ctx = ProbeContext(step_id="configs", host="gpu01", args={}, facts=facts,
                       host_facts={**facts, "engine": {"name": "vllm", "version": "0.11.0"}})
    lines = [line for f in configs_step.check(ctx) for line in f.evidence]
    return ctx.facts["configs"], lines


def test_the_named_verifier_is_the_target_the_layers_are_compared_on(saved):
    facts, lines = _configs(saved / "draft")
    assert NO_TARGET not in lines
    assert facts["target_found"] and facts["target_path"] == str(saved / "target")
    assert facts["target_source"] == "speculators_config.verifier"
    assert facts["target"]["num_hidden_layers"] == NL
    assert facts["layers"]["served"] == AUX  # the layer analysis ran on the verifier's depth
    given, _ = _configs(saved / "draft", str(saved / "target"))
    assert given["target_source"] is None and given["layers"] == facts["layers"]


def test_a_verifier_path_now_holding_another_width_is_not_taken(saved, tmp_path):
    root = tmp_path / "w"
    shutil.copytree(saved, root)
    config_path = root / "target" / "config.json"
    config = json.loads(config_path.read_text())
    config["hidden_size"] = 64  # another model saved over the training's verifier path
    config_path.write_text(json.dumps(config))
    draft_config = root / "draft" / "config.json"
    draft_config.write_text(draft_config.read_text().replace(str(saved), str(root)))
    facts, lines = _configs(root / "draft")
    assert not facts["target_found"] and NO_TARGET in lines


def test_a_draft_naming_no_verifier_still_asks_for_the_target(saved, tmp_path):
    draft = tmp_path / "draft"
    shutil.copytree(saved / "draft", draft)
    config = json.loads((draft / "config.json").read_text())
    del config["speculators_config"]
    (draft / "config.json").write_text(json.dumps(config))
    facts, lines = _configs(draft)
    assert not facts["target_found"] and NO_TARGET in lines
