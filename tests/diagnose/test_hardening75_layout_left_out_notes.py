"""The hidden_layout step on a training dump of every layer's hidden state (no layer ids)
where the probe could not score all of it: one sample file truncated (skipped), and NaN in a
layer the draft does not read (slot 7, an fp16 dump's late layer), left out of the candidate
layouts. The probe's notes said so ("1 sample file(s) skipped; first: ...", "slot 7 holds
NaN or Inf in 2 of 2 samples ...: left out of the candidate layouts"), but they reached only
the step's facts: no report line, so the ranking read as one of the whole dump. Now the step
adds an SD004 info line naming them. A dump read whole gets no such line. Saved by
speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.diagnose.steps import layout_step  # noqa: E402
from spec_debug.probes import hidden_layout  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import NL, save_informative_world  # noqa: E402
from tests.eagle3.test_hardening32_drafter_every_layer_dump import _every_layer_dump  # noqa: E402

VLLM = {"engine": {"name": "vllm", "version": "0.11.0"}}
PARTIAL = "the layout probe on the training dump ranked part of it: "


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    from transformers import LlamaForCausalLM

    root = save_informative_world(tmp_path_factory.mktemp("hardening75_left_out"), seed=1)
    verifier = LlamaForCausalLM.from_pretrained(str(root / "target")).eval()
    return root, _every_layer_dump(root, verifier, root / "wide", range(0, NL + 1))


def _step(root, data):
    raw = hidden_layout.run({"draft_model": str(root / "draft"), "target_model": str(root / "target"),
                             "engine": "vllm", "hidden_states": str(data)})
    return raw, layout_step.check(context(layout_step.parse(raw), VLLM))


def test_skipped_files_and_a_nan_slot_get_a_report_line(world, tmp_path):
    root, wide = world
    data = tmp_path / "damaged"
    data.mkdir()
    paths = sorted(wide.glob("hs_*.safetensors"))
    for path in paths[:-1]:
        tensors = load_file(str(path))
        tensors["hidden_states"] = tensors["hidden_states"].clone()
        tensors["hidden_states"][3, 7] = float("nan")
        save_file(tensors, str(data / path.name))
    # the last file cut short, as an interrupted copy leaves it
    (data / paths[-1].name).write_bytes(paths[-1].read_bytes()[:200])
    raw, findings = _step(root, data)
    assert raw["layout"]["best"] == [2, 4, 5]
    lines = [f for f in findings if f.code == "SD004" and f.evidence[0].startswith(PARTIAL)]
    assert len(lines) == 1, [f.evidence for f in findings]  # was: none
    [said] = lines[0].evidence
    assert "1 sample file(s) skipped; first: " in said
    assert "hs_2.safetensors: truncated (200 bytes, the header describes 10520)" in said
    assert ("slot 7 holds NaN or Inf in 2 of 2 samples (first hs_0.safetensors: 1 of 14 "
            "positions, first at 3): left out of the candidate layouts") in said
    assert lines[0].severity == "info"


def test_a_dump_read_whole_gets_no_such_line(world):
    root, wide = world
    raw, findings = _step(root, wide)
    assert raw["layout"]["best"] == [2, 4, 5]
    assert not any(f.evidence and str(f.evidence[0]).startswith(PARTIAL) for f in findings)
