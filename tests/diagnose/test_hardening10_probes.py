"""The forward_source probe runs on the host under the playbook's `python` (default `python3`:
3.8 on Ubuntu 20.04) and may read the engine's source from the server's own, newer venv
(forward_source.package_in_server). It must still read what it can parse, and say what it
cannot, instead of failing as a whole."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.diagnose.steps import forward_step
from spec_debug.probes import forward_source
from spec_debug.probes.bundle import _bundle_bytes
from tests.diagnose.test_probes_host import ENGINE_STYLE_LAYER


def _older_pythons() -> list[str]:
    """One real interpreter older than 3.9 (no ast.unparse) on this machine, if any."""
    candidates = [shutil.which("python3.8"), *map(str, sorted(Path("/root/.pyenv/versions").glob("3.8*/bin/python")))]
    for python in filter(None, candidates):
        try:
            out = subprocess.run([python, "-c", "import sys; print(sys.version_info < (3, 9))"],
                                 capture_output=True, text=True, timeout=20)
        except OSError:
            continue
        if out.stdout.strip() == "True":
            return [python]
    return []


def test_without_ast_unparse_the_sources_are_read_from_their_text(tmp_path, monkeypatch):
    engine_file = tmp_path / "llama_eagle3.py"
    engine_file.write_text(ENGINE_STYLE_LAYER)
    newer = forward_source.run({"engine": "sglang", "engine_files": [str(engine_file)]})
    # Python 3.8's ast module: no unparse (before: AttributeError, the probe failed as a whole)
    monkeypatch.delattr(ast, "unparse")
    older = forward_source.run({"engine": "sglang", "engine_files": [str(engine_file)]})
    for side in ("reference", "engine"):
        assert older[side]["found"] and older[side]["flags"] == newer[side]["flags"]
        assert older[side]["functions"].keys() == newer[side]["functions"].keys()
    assert ["input_embeds", "hidden_states"] in older["reference"]["cat_orders"]
    assert older["engine"]["cat_orders"] == [["embeds", "hidden_states"]]
    first_layer = "model_definitions.py:Eagle3FirstLayerMixin.forward"
    assert "if self.norm_before_residual:" in older["reference"]["functions"][first_layer]
    assert forward_step.parse(older)["forward"]["side_by_side"][0].startswith(first_layer)


def test_an_engine_file_this_python_cannot_parse_leaves_the_reference_standing(tmp_path):
    engine_file = tmp_path / "llama_eagle3.py"
    # PEP 695 syntax (Python 3.12), read by an older interpreter
    engine_file.write_text(ENGINE_STYLE_LAYER + "\n\ntype Tensors = list[torch.Tensor]\n")
    try:
        ast.parse(engine_file.read_text())
        pytest.skip("this Python parses PEP 695 syntax")
    except SyntaxError:
        pass
    # before: the SyntaxError ended the probe, and the reference side was lost with it
    host = forward_source.run({"engine": "vllm", "engine_files": [str(engine_file)]})
    assert host["reference"]["found"]
    assert not host["engine"]["found"]
    assert "cannot parse it" in host["engine"]["reason"] and "--var python=" in host["engine"]["reason"]


@pytest.mark.parametrize("python", _older_pythons() or [None])
def test_the_bundle_on_a_real_python_3_8(python, tmp_path):
    if python is None:
        pytest.skip("no Python 3.8 on this machine")
    root, _ = forward_source.package_dir("speculators")  # found, not imported (torch is slow)
    if root is None:
        pytest.skip("speculators is not installed")
    bundle = tmp_path / "bundle.pyz"
    bundle.write_bytes(_bundle_bytes())
    eagle3 = root / "models" / "eagle3"
    engine_file = tmp_path / "llama_eagle3.py"
    engine_file.write_text(ENGINE_STYLE_LAYER)
    args = {"engine": "sglang", "reference_files": [str(eagle3 / "core.py"), str(eagle3 / "model_definitions.py")],
            "engine_files": [str(engine_file)]}
    out = subprocess.run([python, str(bundle), "spec_debug.probes.forward_source", json.dumps(args)],
                         capture_output=True, text=True, timeout=60)
    result = json.loads(out.stdout)
    assert "__probe_error__" not in result, result
    assert result["reference"]["found"] and all(result["reference"]["flags"].values())
    assert result["engine"]["cat_orders"] == [["embeds", "hidden_states"]]
