"""A speculators 0.9.0 draft whose t2d was cut short (t2d[:200] of a 256-token vocab, as a
hand-written exporter slicing to the wrong size saves it) beside a served d2t: `drafter vocab`
said "arange(DV) + d2t differs from t2d.nonzero() at 0 of 128 draft ids, first at draft id
100" (no id differs: t2d only names fewer) and "it holds lacks 28 that d2t maps"."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("speculators")

import torch  # noqa: E402
from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import DV, V, save_verifier_and_draft  # noqa: E402


def test_a_truncated_t2d_is_reported_as_t2d_only(tmp_path):
    save_verifier_and_draft(tmp_path)
    weights = tmp_path / "draft" / "model.safetensors"
    state = load_file(weights)
    served = (torch.arange(DV) + state["d2t"]).tolist()
    state["t2d"] = state["t2d"][:200].contiguous()
    save_file(state, str(weights), metadata={"format": "pt"})
    lacking = [i for i in served if i >= 200]

    result = CliRunner().invoke(drafter_app, ["vocab", "--model", str(tmp_path / "draft"),
                                              "--target", str(tmp_path / "target"), "--json"])
    assert "Traceback" not in result.output, result.output
    issues = [issue for check in json.loads(result.output)["checks"] for issue in check["issues"]]
    # d2t is the map engines serve and t2d agrees with it on each id it names: no d2t finding
    assert "d2t_t2d_mismatch" not in [issue["kind"] for issue in issues], issues
    messages = " ".join(issue["message"] for issue in issues)
    assert f"t2d has 200 entries, the target vocab is {V}" in messages, messages
    assert f"it lacks {len(lacking)} that d2t maps ({lacking[0]}," in messages, messages
    assert "holds lacks" not in messages, messages
