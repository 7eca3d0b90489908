"""`spec-debug drafter ...` as a user runs it (the typer app the lead mounts)."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from spec_debug.eagle3.commands import drafter_app

pytest.importorskip("torch")
runner = CliRunner()


def test_eval_json(world):
    result = runner.invoke(drafter_app, ["eval", "--model", str(world.draft), "--data",
                                         str(world.data), "--target", str(world.target),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["reference"] == "target_argmax" and len(data["full_accuracy"]) == 2


def test_eval_table(world):
    result = runner.invoke(drafter_app, ["eval", "--model", str(world.draft), "--data",
                                         str(world.data), "--steps", "3", "--semantics", "sglang",
                                         "--engine-version", "0.5.4", "--no-verifier"])
    assert result.exit_code == 0, result.output
    assert "per position" in result.output and "expected accept length" in result.output
    assert "data_tokens" in result.output


def test_layout_json(world):
    result = runner.invoke(drafter_app, ["layout", "--model", str(world.draft), "--data",
                                         str(world.data), "--target", str(world.target),
                                         "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert {"ranked", "best", "configured", "verdict"} <= set(report)
    assert report["ranked"][0]["layout"] == report["best"]


def test_layout_table_and_vocab(world):
    result = runner.invoke(drafter_app, ["layout", "--model", str(world.draft), "--data",
                                         str(world.embed_data), "--target", str(world.target)])
    assert result.exit_code == 0, result.output
    assert "verdict" in result.output and "embedding output" in result.output
    result = runner.invoke(drafter_app, ["vocab", "--model", str(world.draft)])
    assert result.exit_code == 0 and "d2t_offsets" in result.output


def test_bad_input_is_one_line_and_exit_2(world, tmp_path):
    result = runner.invoke(drafter_app, ["eval", "--model", str(tmp_path / "missing"), "--data",
                                         str(world.data)])
    assert result.exit_code == 2
    assert "error:" in result.output and "Traceback" not in result.output


def test_without_torch_the_error_says_how_to_install(world, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch -> ImportError
    result = runner.invoke(drafter_app, ["eval", "--model", str(world.draft), "--data",
                                         str(world.data)])
    assert result.exit_code == 2
    assert "pip install 'spec-debug[eagle3]'" in result.output


def test_probe_entry_point_prints_one_json_document(world, capsys):
    from spec_debug.eagle3.__main__ import main

    assert main(["eval", "--model", str(world.draft), "--data", str(world.data), "--steps",
                 "1", "--max-samples", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    # the draft's config names its verifier, which is on this host: its argmax is the reference
    assert out["samples"] == 2 and out["reference"] == "target_argmax"
    assert out["target_source"] == "speculators_config.verifier"
    assert main(["eval", "--model", str(world.draft), "--data", str(world.data), "--steps",
                 "1", "--max-samples", "2", "--no-verifier"]) == 0
    assert json.loads(capsys.readouterr().out)["reference"] == "data_tokens"
    assert main(["vocab", "--model", str(world.draft / "missing")]) == 2
    assert "error" in json.loads(capsys.readouterr().out)
