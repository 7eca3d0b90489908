"""A step whose `requires:` var the inventory left empty for a host (`draft_model:` with nothing
after it in hosts.yml, `draft_model=` on the host's INI line, `draft_model: ""` in
group_vars/gpus.yml, or `"{{ draft_dir }}"` over an empty draft_dir) was skipped with
"provide --var draft_model=... to run this step", and SD004's title said the same: the user,
whose inventory names the var for that host, was not told the value was empty there, and a
fleet with one host's blank line read as a run that never saw the inventory. Now the skip and
the title name the inventory (the INI line, the group_vars file) and the value:
"draft_model is empty in the inventory (hosts.ini:2): give it a value there, or
pass --var draft_model=...". A --var given over the inventory keeps the --var wording; a var
the inventory does not set keeps "provide --var". Real `spec-debug run -i` runs (local hosts)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PLAYBOOK = 'name: q\nvars:\n  x: ""\nsteps:\n  - id: s\n    requires: [x]\n    run: echo "{{ x }}"\n'


def _run(tmp_path: Path, inventory: str, *extra: str) -> dict:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "250", "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "-i", inventory, "-o", "runs", *extra],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())


def _said(record: dict, host: str) -> tuple[str, str]:
    [step] = [s for s in record["steps"] if s["host"] == host]
    assert step["status"] == "skipped"
    [finding] = [f for f in record["findings"] if f["code"] == "SD004" and f["host"] == host]
    return step["message"], finding["title"]


def test_a_yaml_host_var_left_blank_names_the_inventory(tmp_path: Path) -> None:
    (tmp_path / "hosts.yml").write_text(
        "all:\n  hosts:\n    gpu1:\n      ansible_connection: local\n      x:\n"
        "    gpu2:\n      ansible_connection: local\n      x: /models/draft\n")
    record = _run(tmp_path, "hosts.yml")
    said = "x is empty (null) in the inventory (hosts.yml): give it a value there, or pass --var x=..."
    assert _said(record, "gpu1") == (f"skipped: {said} to run this step", f"Not checked: {said} to run 1 more step(s)")
    [ran] = [s for s in record["steps"] if s["host"] == "gpu2"]
    assert (ran["status"], ran["stdout"]) == ("passed", "/models/draft\n")


def test_an_ini_line_names_its_line(tmp_path: Path) -> None:
    (tmp_path / "hosts.ini").write_text("[gpus]\ngpu1 ansible_connection=local x=\n")
    message, _ = _said(_run(tmp_path, "hosts.ini"), "gpu1")
    assert message == ("skipped: x is empty in the inventory (hosts.ini:2): give it a value there, "
                       "or pass --var x=... to run this step")


def test_group_vars_names_its_file(tmp_path: Path) -> None:
    (tmp_path / "hosts.ini").write_text("[gpus]\ngpu1 ansible_connection=local\n")
    (tmp_path / "group_vars").mkdir()
    (tmp_path / "group_vars" / "gpus.yml").write_text('x: ""\n')
    message, _ = _said(_run(tmp_path, "hosts.ini"), "gpu1")
    assert message == ("skipped: x is empty in the inventory (group_vars/gpus.yml): give it a value there, "
                       "or pass --var x=... to run this step")


def test_a_template_that_rendered_empty_shows_what_was_written(tmp_path: Path) -> None:
    (tmp_path / "hosts.yml").write_text(
        "all:\n  vars:\n    draft_dir: ''\n  hosts:\n    gpu1:\n      ansible_connection: local\n"
        "      x: '{{ draft_dir }}'\n")
    message, _ = _said(_run(tmp_path, "hosts.yml"), "gpu1")
    assert message == ("skipped: x is empty (written '{{ draft_dir }}') in the inventory (hosts.yml): "
                       "give it a value there, or pass --var x=... to run this step")


def test_a_var_given_over_the_inventory_and_one_it_does_not_set(tmp_path: Path) -> None:
    (tmp_path / "hosts.yml").write_text("all:\n  hosts:\n    gpu1:\n      ansible_connection: local\n      x: ''\n")
    message, _ = _said(_run(tmp_path, "hosts.yml", "--var", "x="), "gpu1")
    assert message == "skipped: --var x is empty: give it a value to run this step"
    (tmp_path / "runs").rename(tmp_path / "first")
    (tmp_path / "hosts.yml").write_text("all:\n  hosts:\n    gpu1:\n      ansible_connection: local\n")
    message, _ = _said(_run(tmp_path, "hosts.yml"), "gpu1")
    assert message == "skipped: provide --var x=... to run this step"
