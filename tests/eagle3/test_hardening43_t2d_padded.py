"""A draft whose t2d mask is longer than the target vocabulary (an exporter that padded it, as
embedding tables are padded) but selects exactly what d2t maps: vLLM and SGLang read d2t
only, so the server is unaffected, while speculators' load_vocab_mappings refuses the mask
(t2d.shape[0] != V). The vocab step said the two lengths and nothing else; it now says what
the server is left with and how to rebuild the mask. The draft is saved by speculators 0.9.0,
then its t2d padded."""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.speculators_world import V  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import world  # noqa: E402,F401


def _vocab_findings(root):
    from spec_debug.diagnose.checks.vocab_maps import check_vocab_report
    from spec_debug.probes import vocab_maps

    report = vocab_maps.run({"draft_model": str(root / "draft"), "target_model": str(root / "target")})
    return check_vocab_report(report["report"])


def _with_t2d(tmp_path, world, change):
    import torch
    from safetensors.torch import load_file, save_file

    root = tmp_path / "t2d"
    shutil.copytree(world, root)
    path = root / "draft" / "model.safetensors"
    tensors = load_file(str(path))
    tensors["t2d"] = change(tensors["t2d"], torch)
    save_file(tensors, str(path), metadata={"format": "pt"})
    return root


def test_a_padded_t2d_selecting_what_d2t_maps_says_serving_is_unaffected_and_the_fix(tmp_path, world):
    root = _with_t2d(tmp_path, world, lambda t2d, torch: torch.cat([t2d, torch.zeros(16, dtype=torch.bool)]))
    [finding] = _vocab_findings(root)
    assert finding.code == "SD303"
    assert finding.evidence == [
        f"t2d has {V + 16} entries, the target vocab is {V}; it selects the same ids as d2t, which "
        "is all vLLM and SGLang read, so serving is unaffected, but speculators refuses it on "
        f"load (resuming training, evaluating): rebuild t2d from d2t with {V} entries "
        "(t2d = zeros(V, dtype=bool); t2d[arange(DV) + d2t] = True)"]


def test_a_padded_t2d_selecting_other_ids_gets_no_such_line(tmp_path, world):
    def padded_other(t2d, torch):
        longer = torch.cat([t2d, torch.zeros(16, dtype=torch.bool)])
        first = int(longer.nonzero()[0])
        longer[first], longer[V + 3] = False, True  # one id past the target's vocabulary
        return longer

    root = _with_t2d(tmp_path, world, padded_other)
    lines = [line for f in _vocab_findings(root) for line in f.evidence]
    assert any(line.startswith(f"t2d has {V + 16} entries, the target vocab is {V}") for line in lines)
    assert not any("serving is unaffected" in line for line in lines)
