"""A target saved in two shards, the second (final norm and lm_head) cut short in the copy.
`drafter eval` says its reference fell back to the data tokens, naming the cut shard, and
`drafter vocab` says the draft's lm_head rows were not compared with the target's; `diagnose`'s
vocab step (the vocab_maps probe's report, then vocab_step.check) gave no finding at all: the
note was lost. Now it is the step's info line (SD004, the check not run) in vocab's words, found
by the prefix (vocab.HEAD_NOT_COMPARED) the note is written with."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.diagnose.steps import vocab_step  # noqa: E402
from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from spec_debug.probes import vocab_maps  # noqa: E402
from spec_debug.probes.registry import ProbeContext  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

FIRST, SECOND = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("head_note")
    save_verifier_and_draft(root)
    return root


def _cut_head_shard(target: Path, out: Path) -> Path:
    """target split in two shards as an index names them, its head's shard 100 bytes short."""
    out.mkdir()
    shutil.copy(target / "config.json", out / "config.json")
    tensors = load_file(str(target / "model.safetensors"))
    head = {name for name in tensors if name.startswith("lm_head") or name == "model.norm.weight"}
    save_file({n: t for n, t in tensors.items() if n not in head}, str(out / FIRST), {"format": "pt"})
    save_file({n: t for n, t in tensors.items() if n in head}, str(out / SECOND), {"format": "pt"})
    weight_map = {name: SECOND if name in head else FIRST for name in tensors}
    (out / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))
    with open(out / SECOND, "r+b") as handle:
        handle.truncate((out / SECOND).stat().st_size - 100)
    return out


def _vocab_findings(draft: Path, target: Path):
    host = vocab_maps.run({"draft_model": str(draft), "target_model": str(target)})
    facts = vocab_step.parse(host)
    ctx = ProbeContext(step_id="vocab", host="h", args={}, facts=facts, host_facts=facts, vars={})
    return vocab_step.check(ctx), facts


def test_the_diagnose_vocab_step_shows_the_cut_target_note(world, tmp_path):
    target = _cut_head_shard(world / "target", tmp_path / "cut")
    [note] = [n for n in check_drafter_vocab(world / "draft", target)["notes"]
              if n.startswith("the draft's lm_head rows were not compared with the target's")]
    assert f"{SECOND} (truncated (" in note
    findings, facts = _vocab_findings(world / "draft", target)
    assert [(f.code, f.severity) for f in findings] == [("SD004", "info")]
    assert findings[0].evidence == [note]
    assert facts["vocab"]["raised"] == []


def test_a_whole_target_gets_no_such_line(world):
    findings, _ = _vocab_findings(world / "draft", world / "target")
    assert findings == []
