"""The one layer fix a re-run cannot read back: a draft trained on layer-inputs [3, 5, 7] of a
Llama target is served exactly by SGLang with eagle_config ids [2, 4, 6] (models/llama.py adds 1
to every id), and a nested list starting at 2 is what sgl-project/sglang#25454 (and this check)
reads as input-to ids. A config alone cannot tell the two apart, so the check contradicted its
own fix: applied and re-run with no training dump, the fixed draft got SD202 with a second fix,
[1, 3, 5], with nothing said. Now the fix says so, and the SD202 on the re-run names the other
reading and when to leave the config as it is. World: a Llama verifier and draft saved by
speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.checks.layers import analyse_layers  # noqa: E402
from spec_debug.diagnose.steps import configs_step  # noqa: E402
from spec_debug.probes.registry import ProbeContext  # noqa: E402
from tests.diagnose.deepseek_world import configs_facts  # noqa: E402
from tests.eagle3.speculators_world import NL, save_verifier_and_draft  # noqa: E402

TOP = "eagle_aux_hidden_state_layer_ids"
KEY = "eagle_config." + TOP


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fix_ambiguity")
    save_verifier_and_draft(root)
    return root


def _check(world: Path, draft: dict) -> tuple[list, dict]:
    facts = configs_facts(world, draft)
    ctx = ProbeContext(step_id="s", host="h", args={}, facts=facts,
                       host_facts={"engine": {"name": "sglang", "version": "0.5.23"}, **facts}, vars={})
    return [f for f in configs_step.check(ctx) if f.code.startswith("SD20")], facts["configs"]["layers"]


def _plain(world: Path, nested: list[int]) -> dict:
    spec = json.loads((world / "draft" / "config.json").read_text())
    return dict(spec["transformer_layer_config"], architectures=["LlamaForCausalLMEagle3"],
                draft_vocab_size=spec["draft_vocab_size"], eagle_config={TOP: nested})


def test_the_fix_says_a_rerun_without_the_dump_cannot_read_it_back(world):
    trained = dict(json.loads((world / "draft" / "config.json").read_text()), **{TOP: [3, 5, 7]})
    found, layers = _check(world, trained)
    assert [f.code for f in found] == ["SD201"]
    assert layers["fix"]["ids"] == [2, 4, 6] and layers["fix"]["reads_back_as"] == [2, 4, 6]
    assert "A config alone cannot tell" in found[0].remediation
    assert "reads them as [2, 4, 6] and calls the fixed draft SD202" in found[0].remediation
    # with the training dump's ids the fixed draft is clean
    fixed = _plain(world, [2, 4, 6])
    assert not analyse_layers("sglang", "0.5.23", fixed, NL, trained_layer_ids=[3, 5, 7],
                              target_architecture="LlamaForCausalLM").mismatch
    # without it, SD202 still (the input-to reading) and it names the other reading
    found, layers = _check(world, fixed)
    assert [f.code for f in found] == ["SD202"] and layers["other_reading"] == [3, 5, 7]
    assert "a config alone cannot tell" in found[0].evidence[-1]
    assert "If the draft was in fact trained on [3, 5, 7]" in found[0].remediation


def test_an_unambiguous_fix_and_a_speculators_record_say_nothing_of_it(world):
    # trained from layer-input 2: the fix [1, 3, 5] reads back as [2, 4, 6] (first id 1)
    trained = dict(json.loads((world / "draft" / "config.json").read_text()), **{TOP: [2, 4, 6]})
    found, layers = _check(world, trained)
    assert "reads_back_as" not in layers["fix"] and "cannot tell" not in found[0].remediation
    # a speculators config keeps its own top-level record beside the nested ids: no ambiguity
    found, layers = _check(world, dict(trained, eagle_config={TOP: [2, 4, 6]}))
    assert [f.code for f in found] == ["SD202"] and layers["other_reading"] is None
    assert "cannot tell" not in " ".join(found[0].evidence) + found[0].remediation


def test_a_vllm_top_level_fix_is_never_called_ambiguous(world):
    # vLLM reads the top-level key raw: its fix is read back as written, whatever the nested
    # ids beside it say (here a stale [2, 4, 5] the training dump contradicts)
    from spec_debug.diagnose.checks.layers import check_aux_layers

    a = analyse_layers("vllm", "latest", _plain(world, [2, 4, 5]), NL, trained_layer_ids=[3, 5, 7],
                       target_architecture="LlamaForCausalLM")
    assert a.fix.key == TOP and a.fix.ids == [3, 5, 7] and a.fix.reads_back_as is None
    assert "cannot tell" not in " ".join(f.remediation or "" for f in check_aux_layers(a))
