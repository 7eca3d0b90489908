"""Drafter inputs as speculators 0.9.0 saves them, damaged the way the field damages them.

Each world is saved by the reference library itself (`save_verifier_and_draft`: a transformers
Llama verifier and speculators' Eagle3DraftModel.save_pretrained over it) with hidden states
captured from that verifier as vLLM captures them. Each test runs the `spec-debug drafter`
command a user would type and checks the answer is the right one, or one clear line.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import V, save_verifier_and_draft, vllm_style_states  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def spec_world(tmp_path_factory) -> Path:
    """target/ and draft/ as transformers and speculators save them (the draft's config names
    target/ as its verifier, as speculators writes it), data/ as vLLM's extraction writes it."""
    root = tmp_path_factory.mktemp("hardening6")
    verifier = save_verifier_and_draft(root, draft_flags={"norm_before_residual": True})
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(5)
    for i in range(3):
        ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (14 + i,), generator=generator))
        save_file({"token_ids": ids, "hidden_states": hidden}, str(root / "data" / f"hs_{i}.safetensors"))
    return root


def _copy(spec_world: Path, tmp_path: Path) -> Path:
    root = tmp_path / "world"
    shutil.copytree(spec_world, root)
    return root


def _invoke(*args: str) -> dict:
    result = runner.invoke(drafter_app, [*args, "--json"])
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    return json.loads(result.output)


def _eval(model: Path, data: Path, *extra: str) -> dict:
    return _invoke("eval", "--model", str(model), "--data", str(data), "--steps", "2", *extra)


def _edit_config(draft: Path, change) -> None:
    path = draft / "config.json"
    config = json.loads(path.read_text())
    change(config)
    path.write_text(json.dumps(config, indent=2))


# -- 1. `drafter eval` without --target: the verifier the draft's config names -----------------

def test_eval_without_target_uses_the_verifier_the_config_names(spec_world):
    """speculators writes speculators_config.verifier.name_or_path (here the local directory
    training used); `vllm serve <draft>` takes the verifier from it. Without --target the
    evaluation must score against that verifier's argmax, not the data's next tokens, and say
    which target it used."""
    config = json.loads((spec_world / "draft" / "config.json").read_text())
    assert config["speculators_config"]["verifier"]["name_or_path"] == str(spec_world / "target")
    given = _eval(spec_world / "draft", spec_world / "data", "--target", str(spec_world / "target"))
    found = _eval(spec_world / "draft", spec_world / "data")
    assert found["reference"] == given["reference"] == "target_argmax"
    assert found["counts"] == given["counts"]
    assert (found["target"], found["target_source"]) == (str(spec_world / "target"),
                                                         "speculators_config.verifier")
    assert given["target_source"] == "--target"
    assert any(n.startswith(f"target: {spec_world / 'target'}") for n in found["notes"])
    # the table says it too
    table = runner.invoke(drafter_app, ["eval", "--model", str(spec_world / "draft"), "--data",
                                        str(spec_world / "data"), "--steps", "2"])
    assert table.exit_code == 0 and "the draft's config names" in " ".join(table.output.split())
    # and the user can still ask for the data's tokens
    plain = _eval(spec_world / "draft", spec_world / "data", "--no-verifier")
    assert plain["reference"] == "data_tokens" and plain["target"] is None


def test_verifier_named_by_hub_id_is_read_from_the_local_cache(spec_world, tmp_path, monkeypatch):
    """A draft published on the Hub names its verifier by Hub id; on the serving host that
    verifier sits in the Hugging Face cache (models--org--name/snapshots/<refs/main>)."""
    root = _copy(spec_world, tmp_path)
    _edit_config(root / "draft", lambda c: c["speculators_config"]["verifier"].update(
        name_or_path="acme-ai/Tiny-Llama-Verifier"))
    cache = tmp_path / "hub"
    entry = cache / "models--acme-ai--Tiny-Llama-Verifier"
    (entry / "refs").mkdir(parents=True)
    (entry / "refs" / "main").write_text("0123abcd")
    shutil.copytree(root / "target", entry / "snapshots" / "0123abcd")
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    out = _eval(root / "draft", root / "data")
    assert out["reference"] == "target_argmax"
    assert out["target"] == str(entry / "snapshots" / "0123abcd")
    assert any("'acme-ai/Tiny-Llama-Verifier'" in n for n in out["notes"])
    vocab = _invoke("vocab", "--model", str(root / "draft"))
    assert vocab["ok"] and vocab["target_source"] == "speculators_config.verifier"


def test_verifier_not_here_says_so_and_scores_the_data(spec_world, tmp_path, monkeypatch):
    root = _copy(spec_world, tmp_path)
    _edit_config(root / "draft", lambda c: c["speculators_config"]["verifier"].update(
        name_or_path="meta-llama/Llama-3.1-8B-Instruct"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    out = _eval(root / "draft", root / "data")
    assert out["reference"] == "data_tokens" and out["target"] is None
    assert any(re.search(r"names its verifier 'meta-llama/Llama-3.1-8B-Instruct'.*neither a "
                         r"local directory nor in the Hugging Face cache.*--target", n)
               for n in out["notes"]), out["notes"]


def test_verifier_path_reused_for_another_model_is_not_scored(spec_world, tmp_path):
    """The training host's path now holds another model (other width): it must not be used
    silently, nor end the evaluation."""
    root = _copy(spec_world, tmp_path)
    _edit_config(root / "target", lambda c: c.update(hidden_size=48))
    _edit_config(root / "draft", lambda c: c["speculators_config"]["verifier"].update(
        name_or_path=str(root / "target")))
    out = _eval(root / "draft", root / "data")
    assert out["reference"] == "data_tokens" and out["target"] is None
    assert any("hidden_size 48, the draft takes 32-wide states: not used" in n
               for n in out["notes"]), out["notes"]
