"""A speculators 0.9.0 draft whose config.json lost its speculators_config, checked with no
--var target_model.

The vocab probe (`drafter vocab`) finds the target through speculators_config.verifier when no
target is given; without the section it has none and checks the maps against the draft
config's own vocab_size. Before: the vocab step said only "no target checkpoint: the draft
config's vocab_size was taken as the target vocabulary" and asked for --var target_model,
beside the configs step's SD704 for the missing section, with no word that the missing
section is why no target was found; `drafter vocab`'s note said only "no target: the maps and
embedding were checked against the draft config's own vocab_size" where `drafter eval` says
"the draft's config names no verifier". Now both name the cause."""

from __future__ import annotations

import json
import os
from importlib import import_module

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import configs_step, vocab_step  # noqa: E402
from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

VLLM = {"engine": {"name": "vllm", "version": "0.12.0"}}
PLAIN = "no target checkpoint: the draft config's vocab_size was taken as the target vocabulary"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    root = tmp_path_factory.mktemp("vocab-no-verifier")
    save_verifier_and_draft(root)
    return root


@pytest.fixture
def stripped(tmp_path, saved):
    import shutil

    shutil.copytree(saved / "draft", tmp_path / "draft")
    path = tmp_path / "draft" / "config.json"
    config = json.loads(path.read_text())
    del config["speculators_config"]
    path.write_text(json.dumps(config, indent=2))
    return tmp_path / "draft"


def _vocab_lines(draft, engine=VLLM, with_configs=True):
    host = dict(engine)
    if with_configs:
        facts = configs_step.parse(import_module("spec_debug.probes.model_configs").run(
            {"draft_model": str(draft), "target_model": ""}))
        host.update(facts)
        configs = configs_step.check(context(facts, host))
        assert ("SD704", "error") in [(f.code, f.severity) for f in configs]
    raw = import_module("spec_debug.probes.vocab_maps").run({"draft_model": str(draft), "target_model": ""})
    found = vocab_step.check(context(vocab_step.parse(raw), host))
    return [(f.code, f.severity, f.evidence[0], f.facts.get("provide")) for f in found
            if "no target checkpoint" in f.evidence[0]]


def test_after_sd704_the_vocab_step_names_the_missing_section_as_why(stripped):
    assert _vocab_lines(stripped) == [(
        "SD004", "info",
        "no target checkpoint: the draft config's vocab_size was taken as the target vocabulary, as "
        "the draft's config names no verifier to check against: its speculators_config is not there "
        "(SD704, reported above)",
        "the draft's speculators_config put back (its verifier names the target), or "
        "--var target_model=DIR")]


def test_with_no_configs_step_the_line_is_as_before(stripped):
    assert _vocab_lines(stripped, with_configs=False) == [("SD004", "info", PLAIN, "--var target_model=DIR")]


def test_drafter_vocab_says_the_config_names_no_verifier(stripped, saved):
    [note] = [n for n in check_drafter_vocab(stripped)["notes"] if n.startswith("no target:")]
    assert note.startswith("no target: the draft's config names no verifier "
                           "(speculators_config.verifier), so the maps and embedding were checked "
                           "against the draft config's own vocab_size")
    # --no-verifier: the config was not asked, so it is not said to name none
    [asked_not] = [n for n in check_drafter_vocab(saved / "draft", find_verifier=False)["notes"]
                   if n.startswith("no target:")]
    assert asked_not.startswith("no target: the maps and embedding were checked")
