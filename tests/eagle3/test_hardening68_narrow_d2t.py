"""d2t saved in an integer type too narrow for the target's offsets (a state dict cast to
uint16 / int16 to save space): a 128256-token target's offsets reach 96256, kept modulo 65536.
`drafter vocab` said only "not strictly increasing" / "differs from t2d", without the cause;
now a d2t_narrow line (SD302) names the dtype and the fix."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
if not hasattr(torch, "uint16"):
    pytest.skip("torch without uint16", allow_module_level=True)

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from spec_debug.eagle3.vocab import check_vocab_maps  # noqa: E402
from tests.eagle3._world import informative_world  # noqa: E402

runner = CliRunner()
world = informative_world("hardening68-narrow-d2t", seed=683)

V, DV = 128256, 32000


def _maps(seed: int = 0):
    selected = torch.randperm(V, generator=torch.Generator().manual_seed(seed))[:DV].sort().values
    t2d = torch.zeros(V, dtype=torch.bool)
    t2d[selected] = True
    return selected - torch.arange(DV), t2d


@pytest.mark.parametrize("dtype,name", [(torch.uint16, "U16"), (torch.int16, "I16")])
@pytest.mark.parametrize("written", ["safetensors", "torch"])
def test_d2t_cast_to_16_bits_for_a_llama3_vocabulary(dtype, name, written):
    d2t, t2d = _maps()
    assert int(d2t.max()) > 65535
    report = check_vocab_maps(d2t=d2t.to(dtype), t2d=t2d, target_vocab_size=V, draft_vocab_size=DV,
                              d2t_dtype=name if written == "safetensors" else str(dtype))
    issues = [i for i in report.issues if i.kind == "d2t_narrow"]
    ceiling = 65535 if name == "U16" else 32767
    assert [(i.code, i.message) for i in issues] == [(
        "SD302", f"d2t is stored as {name}, which holds offsets only up to {ceiling}; a map of "
        f"32000 of this target's 128256 ids needs offsets up to 96256, and those above "
        f"{ceiling} were wrapped (kept modulo 65536), so draft ids map to wrong target ids (a "
        "whole-state-dict dtype cast): save d2t as int64 (t2d.nonzero() - arange(DV))")]
    assert report.checks[1].issues[0].kind == "d2t_narrow"  # said first, before its symptoms


def test_a_narrow_d2t_whose_offsets_fit_is_no_issue():
    """A 16-bit d2t that holds every offset (none reached past the type) serves right."""
    d2t, t2d = _maps()
    small = torch.arange(DV) * 2  # target ids 0, 2, 4, ...: offsets up to 31999
    t2d = torch.zeros(V, dtype=torch.bool)
    t2d[small] = True
    report = check_vocab_maps(d2t=(small - torch.arange(DV)).to(torch.uint16), t2d=t2d,
                              target_vocab_size=V, draft_vocab_size=DV, d2t_dtype="U16")
    assert report.ok, report.issues
    # and a vocabulary whose offsets uint16 always holds
    report = check_vocab_maps(d2t=d2t[:10].to(torch.int64), t2d=None, target_vocab_size=40000,
                              draft_vocab_size=10, d2t_dtype="U16")
    assert "d2t_narrow" not in [i.kind for i in report.issues]


def test_drafter_vocab_on_a_speculators_draft_with_an_int8_d2t(world, tmp_path):
    """The world's 256-token target, a draft of its top 128 ids (offsets 128): saved as int8
    (up to 127) they wrap to -128; `drafter vocab` names the cast. Saved as uint16 they fit."""
    root = tmp_path / "world"
    shutil.copytree(world, root)
    path = root / "draft" / "model.safetensors"
    tensors = load_file(path)
    vocab, dv = tensors["t2d"].numel(), tensors["d2t"].numel()
    assert (vocab, dv) == (256, 128)
    t2d = torch.zeros(vocab, dtype=torch.bool)
    t2d[vocab - dv:] = True
    d2t = torch.full((dv,), vocab - dv)

    def vocab_json(d2t_saved):
        save_file({**tensors, "t2d": t2d, "d2t": d2t_saved}, str(path), metadata={"format": "pt"})
        result = runner.invoke(drafter_app, ["vocab", "--model", str(root / "draft"), "--target",
                                             str(root / "target"), "--json"])
        assert "Traceback" not in result.output, result.output
        return json.loads(result.output)

    kinds = lambda report: [i["kind"] for c in report["checks"] for i in c["issues"]]  # noqa: E731
    assert "d2t_narrow" not in kinds(vocab_json(d2t))
    assert "d2t_narrow" not in kinds(vocab_json(d2t.to(torch.uint16)))
    report = vocab_json(d2t.to(torch.int8))
    assert report["ok"] is False
    (issue,) = [i for c in report["checks"] for i in c["issues"] if i["kind"] == "d2t_narrow"]
    assert issue["code"] == "SD302"
    assert issue["facts"] == {"dtype": "I8", "holds_up_to": 127, "offsets_needed_up_to": 128}
