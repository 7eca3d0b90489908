"""A step whose `requires:` var the playbook builds from another (`served_model: "{{ model
}}"`) was skipped with "provide --var served_model=... to run this step", and SD004's title
said the same, when the var it is built from was the empty one: `--var model=` (an unset
shell variable: `--var model=$MODEL`), no --var model at all, or `model=` on the host's
inventory line. The user was sent to a var they are not meant to set, and one who had passed
`--var model=` read it as their --var not being seen. Now the skip and the title name the var
the value is built from, with what was written: "--var model is empty: give it a value
(served_model is '{{ model }}')". SD004's fact `var` still names the step's var; a --var given
for the built var itself keeps its own wording. Real `spec-debug run` runs (local hosts)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PLAYBOOK = ('name: q\nvars:\n  model: ""\n  served_model: "{{ model }}"\n'
            'steps:\n  - id: s\n    requires: [served_model]\n    run: echo "{{ served_model }}"\n')


def _run(tmp_path: Path, *extra: str) -> dict:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "250", "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "-o", "runs", *extra],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())


def _said(record: dict) -> tuple[str, str]:
    [step] = record["steps"]
    assert step["status"] == "skipped"
    [finding] = [f for f in record["findings"] if f["code"] == "SD004"]
    assert finding["facts"]["var"] == "served_model"
    return step["message"], finding["title"]


@pytest.mark.parametrize(("given", "said"), [
    (["--var", "model="], "--var model is empty: give it a value (served_model is '{{ model }}')"),
    ([], "provide --var model=... (served_model is '{{ model }}')"),
])
def test_an_empty_var_a_required_one_is_built_from_is_named(tmp_path: Path, given: list[str], said: str) -> None:
    # was "provide --var served_model=..."
    record = _run(tmp_path, "--host", "local", *given)
    assert _said(record) == (f"skipped: {said} to run this step", f"Not checked: {said} to run 1 more step(s)")


def test_an_inventory_line_that_left_it_empty_is_named(tmp_path: Path) -> None:
    (tmp_path / "hosts.ini").write_text("[gpus]\ngpu1 ansible_connection=local model=\n")
    message, _ = _said(_run(tmp_path, "-i", "hosts.ini"))
    assert message == ("skipped: model is empty in the inventory (hosts.ini:2): give it a value there, or pass "
                       "--var model=... (served_model is '{{ model }}') to run this step")


def test_the_built_var_given_empty_itself_keeps_its_words(tmp_path: Path) -> None:
    message, _ = _said(_run(tmp_path, "--host", "local", "--var", "model=llama", "--var", "served_model="))
    assert message == "skipped: --var served_model is empty: give it a value to run this step"


def test_a_value_given_runs_the_step(tmp_path: Path) -> None:
    [step] = _run(tmp_path, "--host", "local", "--var", "model=meta-llama/Llama-3.1-8B-Instruct")["steps"]
    assert (step["status"], step["stdout"]) == ("passed", "meta-llama/Llama-3.1-8B-Instruct\n")
