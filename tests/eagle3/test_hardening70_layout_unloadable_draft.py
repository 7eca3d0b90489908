"""The hidden_layout step over a draft folder vLLM and SGLang load no weight file from (only
config.json: its weights never saved), or whose model.safetensors is a git-lfs pointer.
`run perf_regression` gave SD710 in the configs step, then the layout step failed again as an
SD003 warning ("layout probe not run: ... no model.safetensors ..."): one cause said twice, the
second time as a step that could not run. It now says, as the vocab and eval steps do, that
the layout probe did not run because of the SD710 above (info), gives SD710 itself where no
configs step ran (hidden_state_format), and keeps the conventions table. The world is saved by
speculators 0.9.0 (tests/eagle3/speculators_world.py), then damaged."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import layout_step  # noqa: E402
from spec_debug.probes import hidden_layout  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

POINTER = "version https://git-lfs.github.com/spec/v1\noid sha256:{}\nsize 123456\n".format("0" * 64)
NOT_RUN = "layout probe not run: vLLM and SGLang cannot load the draft's weights (SD710, reported above): "


@pytest.fixture
def root(tmp_path):
    return save_informative_world(tmp_path / "w", seed=0)


def _layout(root, host_facts=None, **more):
    raw = hidden_layout.run({"draft_model": str(root / "draft"), "target_model": str(root / "target"),
                             "engine": "vllm", **more})
    return raw, layout_step.check(context(layout_step.parse(raw), host_facts or {}))


def _not_conventions(findings):
    return [f for f in findings if not f.evidence[0].startswith("conventions")]


def test_after_the_configs_steps_sd710_the_layout_step_only_says_it_did_not_run(root):
    (root / "draft" / "model.safetensors").unlink()
    raw, findings = _layout(root, {"configs": {"raised": ["SD710"]}}, hidden_states=str(root / "data"))
    assert raw["conventions"]  # kept: it needs no weights
    [finding] = _not_conventions(findings)
    assert (finding.code, finding.severity) == ("SD004", "info")
    assert finding.evidence == [
        f"{NOT_RUN}{root / 'draft'}: no model.safetensors, *.safetensors or pytorch_model.bin; vLLM and "
        "SGLang find no weights here either (they load *.safetensors, *.bin or *.pt files only: "
        "\"Cannot find any model weights\")"]


def test_a_pointer_draft_is_the_layout_steps_sd710_where_no_configs_step_ran(root):
    (root / "draft" / "model.safetensors").write_text(POINTER)
    _, findings = _layout(root, hidden_states=str(root / "data"))
    [finding] = _not_conventions(findings)
    assert (finding.code, finding.severity) == ("SD710", "error")
    assert finding.title == "A draft weight file the engines load cannot be read"
    assert finding.remediation.startswith("Run `git lfs pull` in the checkpoint repository.")


@pytest.mark.parametrize("with_training", [True, False])
def test_a_serving_dump_scored_with_a_draft_with_no_weights_says_sd710_once(root, with_training):
    """The serving dump is read (its layer ids), not scored: it was an SD004 line naming the
    drafter's refusal again ("the checkpoint to score it with could not be loaded")."""
    import json

    from safetensors.torch import load_file, save_file

    named = root / "named"
    named.mkdir()
    for path in sorted((root / "data").glob("hs_*.safetensors")):  # a dump that names its layers
        save_file(load_file(str(path)), str(named / path.name), metadata={"layer_ids": json.dumps([2, 4, 5, 8])})
    (root / "draft" / "model.safetensors").unlink()
    more = {"hidden_states": str(root / "data")} if with_training else {}
    raw, findings = _layout(root, {"configs": {"raised": ["SD710"]}}, serving_dump=str(named), **more)
    assert "serving_checkpoint_error" not in raw and raw["serving_dump"]["layer_ids"] == [2, 4, 5, 8]
    assert [f.evidence[0][:len(NOT_RUN)] for f in _not_conventions(findings)
            if f.code in ("SD003", "SD004", "SD710")] == [NOT_RUN]


def test_a_draft_with_its_weights_is_ranked(root):
    raw, findings = _layout(root, hidden_states=str(root / "data"))
    assert raw.get("layout") and not raw.get("no_engine_weights")
    assert [f.code for f in findings if f.code in ("SD003", "SD710")] == []
