"""The vocab step on a draft whose config names its verifier, run without --var target_model.

The vocab_maps probe runs `drafter vocab`, which finds the verifier the draft's config names
(speculators_config.verifier.name_or_path, a local directory or the Hub cache) and checks the
maps against its vocabulary. Before: the step looked only at the probe's --var target_model and
added "no target checkpoint: the draft config's vocab_size was taken as the target vocabulary"
beside a report checked against the target, sending the user to provide what was already used.
Now that line is said only when no target was used at all. Saved by speculators 0.9.0."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.steps import vocab_step  # noqa: E402
from spec_debug.probes import vocab_maps  # noqa: E402
from spec_debug.probes.registry import ProbeContext  # noqa: E402
from tests.eagle3.speculators_world import V, save_verifier_and_draft  # noqa: E402

NO_TARGET = "no target checkpoint: the draft config's vocab_size was taken as the target vocabulary"


def _step_lines(host: dict) -> list[str]:
    facts = vocab_step.parse(host)
    ctx = ProbeContext(step_id="vocab", host="gpu01", args={}, facts=facts, host_facts=facts)
    return [line for f in vocab_step.check(ctx) for line in f.evidence]


def test_maps_checked_against_the_named_verifier_are_not_called_unchecked(tmp_path):
    save_verifier_and_draft(tmp_path)
    host = vocab_maps.run({"draft_model": str(tmp_path / "draft"), "target_model": ""})
    report = host["report"]
    assert report["target_source"] == "speculators_config.verifier"
    assert report["target"] == str(tmp_path / "target") and report["target_vocab_size"] == V
    assert NO_TARGET not in _step_lines(host)


def test_a_draft_whose_verifier_is_not_here_still_gets_the_line(tmp_path):
    save_verifier_and_draft(tmp_path)
    config_path = tmp_path / "draft" / "config.json"
    config = json.loads(config_path.read_text())
    config["speculators_config"]["verifier"]["name_or_path"] = str(tmp_path / "elsewhere")
    config_path.write_text(json.dumps(config))
    host = vocab_maps.run({"draft_model": str(tmp_path / "draft"), "target_model": ""})
    assert host["report"]["target"] is None
    assert NO_TARGET in _step_lines(host)
