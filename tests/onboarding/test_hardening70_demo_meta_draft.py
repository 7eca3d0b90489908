"""`spec-debug demo` took 49-63 s on a loaded machine (README: "in seconds"). Profiled
(cProfile of the hidden_layout probe the demo runs): 6.3 of its 15 s went to importing
torch._dynamo, which nothing of the drafter uses. The shape check every drafter probe makes
first (loading.check_weights_fit_config builds the draft on the meta device) ran
nn.Embedding's normal_ init there, and a meta tensor's normal_ goes through torch._refs, which
imports torch._dynamo (~2 s of CPU, 4-8 s of wall time on a loaded host). The embedding is now
given its (meta) weight, so that init is not run; the draft's shapes are the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]
DEMO_DRAFT = ROOT / "spec_debug" / "data" / "demo" / "draft"

_CHECK = """
import json, sys
from spec_debug.eagle3.checkpoint import open_draft
from spec_debug.eagle3.loading import check_weights_fit_config
model = check_weights_fit_config(open_draft(sys.argv[1]))
print(json.dumps({"dynamo": "torch._dynamo" in sys.modules,
                  "embed": [str(model.embed_tokens.weight.device), list(model.embed_tokens.weight.shape)],
                  "shapes": {name: list(p.shape) for name, p in model.named_parameters()}}))
"""


def _meta_check(draft: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHECK, str(draft)], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_shape_check_of_a_draft_imports_no_torch_dynamo():
    checked = _meta_check(DEMO_DRAFT)
    assert checked["dynamo"] is False
    config = json.loads((DEMO_DRAFT / "config.json").read_text())  # the flat config SGLang loads (hardening75)
    assert checked["embed"] == ["meta", [config["vocab_size"], config["hidden_size"]]]


def test_a_draft_built_off_the_meta_device_is_still_initialised_as_before():
    """Only the meta draft skips the init: a draft built on the CPU (the tests' drafts, seeded)
    draws its embedding as nn.Embedding does."""
    import torch
    from torch import nn

    from spec_debug.eagle3.checkpoint import open_draft
    from spec_debug.eagle3.model import Eagle3Draft

    config = open_draft(DEMO_DRAFT).config
    torch.manual_seed(0)
    model = Eagle3Draft(config)
    torch.manual_seed(0)
    expected = nn.Embedding(config.vocab_size, config.hidden_size)
    assert torch.equal(model.embed_tokens.weight, expected.weight)
