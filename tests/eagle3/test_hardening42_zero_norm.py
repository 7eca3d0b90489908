"""A draft whose RMSNorm weight is all zeros: a copy whose end was never written (parallel
downloaders preallocate the full file; safetensors writes the tensors in name order, so
norm.weight and t2d come last) or an export that left the module out. The final norm then
zeroes every state, the logits are all equal and the draft predicts nothing. The eval scored
0 with no word of why: a 1-D tensor of zeros was not in the "all zeros" check (matrices only),
and its distance from 1.0 counted it as a trained norm, so in a draft whose other norms are
still at 1.0 the note named those as the lost modules "while norm.weight is trained". Now the
zeroed norm is named. Built from a world speculators saved."""

from __future__ import annotations

import json
import shutil
import struct

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

ZERO_NOTE = "RMSNorm weights that are all zeros: norm.weight"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return save_informative_world(tmp_path_factory.mktemp("zero_norm"), seed=1)


def _copy(world, tmp_path, name):
    root = tmp_path / name
    shutil.copytree(world, root)
    return root, root / "draft" / "model.safetensors"


def _eval(root):
    return evaluate_drafter(root / "draft", root / "data", root / "target", steps=1)


def test_the_saved_draft_gets_no_zero_note(world):
    assert not any(n.startswith("RMSNorm weights that are all zeros") for n in _eval(world)["notes"])


def test_a_zeroed_final_norm_is_named_and_not_called_trained(world, tmp_path):
    root, weights = _copy(world, tmp_path, "zeroed")
    tensors = load_file(str(weights))
    tensors["norm.weight"].zero_()
    save_file(tensors, str(weights), metadata={"format": "pt"})
    result = _eval(root)
    assert result["full_accuracy"][0] == 0.0
    [note] = [n for n in result["notes"] if n.startswith(ZERO_NOTE)]
    assert "copy it again" in note
    assert not any("while norm.weight is trained" in n for n in result["notes"])


def test_a_zeroed_final_norm_beside_trained_norms_is_named(world, tmp_path):
    # the other norms moved from 1.0 as training moves them: before, no note at all
    root, weights = _copy(world, tmp_path, "trained")
    tensors = load_file(str(weights))
    for name in tensors:
        if name.endswith("norm.weight"):
            tensors[name] = tensors[name] * 1.1
    tensors["norm.weight"].zero_()
    save_file(tensors, str(weights), metadata={"format": "pt"})
    result = _eval(root)
    assert any(n.startswith(ZERO_NOTE) for n in result["notes"])


def test_a_copy_whose_end_was_never_written_names_the_norm(world, tmp_path):
    root, weights = _copy(world, tmp_path, "tail")
    data = bytearray(weights.read_bytes())
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    start = 8 + length + header["norm.weight"]["data_offsets"][0]
    assert start > 8 + length + max(v["data_offsets"][0] for k, v in header.items()
                                    if k not in ("__metadata__", "norm.weight", "t2d"))
    data[start:] = bytes(len(data) - start)  # norm.weight and t2d: the preallocated zeros
    weights.write_bytes(bytes(data))
    assert any(n.startswith(ZERO_NOTE) for n in _eval(root)["notes"])


def test_no_layout_is_judged_on_a_zeroed_norm(world, tmp_path):
    """The layout probe ranked the layouts of such a draft (all at 0.000) and told the user to
    probe a dump with more samples; the layout step now says the layout was not judged."""
    from spec_debug.diagnose.checks.drafter import check_layout
    from spec_debug.diagnose.steps import layout_step
    from spec_debug.probes import hidden_layout
    from tests.diagnose.test_steps import codes, context

    root, weights = _copy(world, tmp_path, "layout")
    tensors = load_file(str(weights))
    tensors["norm.weight"].zero_()
    save_file(tensors, str(weights), metadata={"format": "pt"})
    out = hidden_layout.run({"draft_model": str(root / "draft"), "target_model": str(root / "target"),
                             "hidden_states": str(root / "data"), "engine": "vllm"})
    layout = out["layout"]
    assert layout["zeroed_norms"] is True
    assert layout["verdict"].startswith("no layout can be judged with this draft: RMSNorm weights "
                                        "of it are all zeros")
    assert "more samples" not in layout["verdict"]
    found = layout_step.check(context(layout_step.parse(out)))
    assert "SD402" not in [code for code, _ in codes(found)]
    [line] = [f for f in found if "layout not judged" in f.evidence[0]]
    assert line.code == "SD004" and "all zeros" in line.evidence[0]
    training = dict(layout)
    training["ranked"] = [{"layout": [0, 1, 3], "full_accuracy0": 0.2},
                          {"layout": [0, 1, 2], "full_accuracy0": 0.0}]
    assert check_layout(training, [0, 1, 2]) == []
