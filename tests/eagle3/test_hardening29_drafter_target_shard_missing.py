"""A target saved in two shards whose index names both, the second (with lm_head) not copied
(a debug host given only some shards). Eval says its reference falls back to the data tokens
for want of the head, naming the shard; `drafter vocab` skipped its lm_head row check with no
word at all (a truncated target got "the draft's lm_head rows were not compared with the
target's (...)"). Now vocab names the missing shard as well."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

FIRST, SECOND = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"


def test_vocab_says_the_head_shard_is_missing(tmp_path):
    save_verifier_and_draft(tmp_path)
    target = tmp_path / "target"
    tensors = load_file(str(target / "model.safetensors"))
    (target / "model.safetensors").unlink()
    names = sorted(tensors)  # lm_head.weight sorts before model.*: move it to the second shard
    second = {"lm_head.weight"}
    save_file({n: tensors[n] for n in names if n not in second}, str(target / FIRST), {"format": "pt"})
    weight_map = {n: SECOND if n in second else FIRST for n in names}
    (target / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))
    report = check_drafter_vocab(tmp_path / "draft", target)
    [check] = [c for c in report["checks"] if c["name"] == "lm_head_map"]
    assert check["skipped"]
    assert [n for n in report["notes"] if n.startswith("the draft's lm_head rows were not compared")] == [
        f"the draft's lm_head rows were not compared with the target's (its lm_head is not in "
        f"{target} (shards named in the index but not present: {SECOND}))"]


def test_a_config_only_target_stays_a_plain_skip(tmp_path):
    save_verifier_and_draft(tmp_path)
    config_only = tmp_path / "config_only"
    config_only.mkdir()
    shutil.copy(tmp_path / "target" / "config.json", config_only / "config.json")
    report = check_drafter_vocab(tmp_path / "draft", config_only)
    assert not [n for n in report["notes"] if "lm_head rows were not compared" in n]
