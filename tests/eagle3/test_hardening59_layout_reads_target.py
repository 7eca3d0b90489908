"""`spec-debug drafter layout` read a plain (EAGLE/SpecForge-format) draft's eagle_config ids
[0, 2, 4] as layer-inputs [0, 2, 4], the embedding first, on a Llama target, where SGLang's
models/llama.py adds 1 to each id (sgl-project/sglang python/sglang/srt/models/llama.py
set_eagle3_layers_to_capture) and where `drafter eval` and the configs step read [1, 3, 5]: the
same config gave two different trained layouts. The layout probe (and eval's refusal of a dump
made for another draft) now read the ids by the target's architecture; without a known target,
both commands say which reading they took and what the other is, in one line.

World: a Llama verifier and draft saved by speculators 0.9.0 and transformers
(tests/eagle3/speculators_world.py), the draft rewritten as SpecForge saves it, and a dump of
every layer input plus the final pre-norm state, named in its layer_ids metadata."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import NL  # noqa: E402
from tests.eagle3.test_hardening59_drafter_nested_embedding_id import _with_nested, world  # noqa: E402,F401

runner = CliRunner()


def _run(args: list[str]):
    return runner.invoke(drafter_app, args + ["--json"])


def test_layout_reads_nested_ids_by_the_llama_target_as_eval_does(world):
    draft = _with_nested(world, [0, 2, 4], "llama_fix")
    common = ["--model", str(draft), "--data", str(world / "wide"), "--target", str(world / "target")]
    layout = _run(["layout", *common])
    assert layout.exit_code == 0, layout.output
    report = json.loads(layout.output)
    assert report["configured"] == [1, 3, 5]
    assert "the configured layout uses it" not in report["verdict"]  # no embedding slot fed
    evaluated = _run(["eval", *common, "--steps", "1"])
    assert json.loads(evaluated.output)["layout_layer_ids"] == report["configured"]


def test_without_a_target_the_reading_taken_is_said(world):
    draft = _with_nested(world, [0, 2, 4], "llama_fix")
    common = ["--model", str(draft), "--data", str(world / "wide"), "--no-verifier"]
    for args in (["layout", *common], ["eval", *common, "--steps", "1"]):
        result = _run(args)
        assert result.exit_code == 0, result.output
        said = [n for n in json.loads(result.output)["notes"] if "architecture is unknown" in n]
        assert len(said) == 1, result.output
        assert "read as layer-inputs [0, 2, 4]" in said[0] and "DeepSeek-family" in said[0]
        assert "Llama-path target" in said[0] and "[1, 3, 5]" in said[0]


def test_ids_a_target_does_not_change_get_no_note(world):
    # a nested list starting at 2 is input-to on every target (PR #25454's rule)
    result = _run(["layout", "--model", str(_with_nested(world, [2, 4, 5], "plain")),
                   "--data", str(world / "wide"), "--no-verifier"])
    assert result.exit_code == 0, result.output
    assert not [n for n in json.loads(result.output)["notes"] if "architecture is unknown" in n]


def test_a_dump_for_another_draft_names_the_drafts_layers_by_the_target(world, tmp_path):
    # two aux slots and the final layer N: fewer than the draft's fc takes, refused naming the
    # draft's layers, which on this Llama target are [1, 3, 5], not [0, 2, 4]
    from safetensors import safe_open
    from safetensors.torch import save_file

    (tmp_path / "short").mkdir()
    for path in sorted((world / "wide").glob("*.safetensors")):
        with safe_open(str(path), "pt") as f:
            ids, hidden = f.get_tensor("token_ids"), f.get_tensor("hidden_states")
        save_file({"token_ids": ids, "hidden_states": hidden[:, [1, 3, NL]].contiguous()},
                  str(tmp_path / "short" / path.name), metadata={"layer_ids": json.dumps([1, 3, NL])})
    result = _run(["eval", "--model", str(_with_nested(world, [0, 2, 4], "llama_fix")),
                   "--data", str(tmp_path / "short"), "--target", str(world / "target"), "--steps", "1"])
    assert result.exit_code != 0
    assert "(layers [1, 3, 5])" in result.output, result.output
