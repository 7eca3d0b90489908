"""`drafter eval --steps 1000000000` (or a draft config whose speculative_tokens says so)
allocated per-step counts for every one of the 10**9 steps: the host's memory ran out (24 GB and
climbing) before a line was printed. The command now refuses such a --steps at once, and a
config that says it is noted and evaluated at the default depth."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from tests.conftest import run_cli  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


def test_a_depth_past_any_use_is_refused_at_once(tmp_path):
    root = save_informative_world(tmp_path / "world", seed=3)
    result = run_cli("drafter", "eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                     "--steps", "1000000000", timeout=60)
    assert result.code == 2, result.stdout + result.stderr
    assert "--steps 1000000000: deeper than any chain is accepted (at most 64 here)" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_deepest_allowed_still_runs(tmp_path):
    root = save_informative_world(tmp_path / "world", seed=3)
    result = run_cli("drafter", "eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                     "--steps", "64", "--json", timeout=120)
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["steps"] == 64


def test_a_config_past_any_use_is_noted_and_evaluated_at_the_default(tmp_path):
    root = save_informative_world(tmp_path / "world", seed=3)
    config_path = root / "draft" / "config.json"
    config = json.loads(config_path.read_text())
    config["speculators_config"]["proposal_methods"][0]["speculative_tokens"] = 10**9
    config_path.write_text(json.dumps(config))
    result = run_cli("drafter", "eval", "--model", str(root / "draft"), "--data", str(root / "data"), "--json",
                     timeout=60)
    assert result.code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["steps"] == 3
    assert any("speculative_tokens is 1000000000, far past any use: evaluated at 3 steps" in note
               for note in out["notes"])
