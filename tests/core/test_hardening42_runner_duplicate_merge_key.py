"""Two merge keys (`<<`) in one step.

A step written with `<<: *defaults` and, below it, `<<: *gpu_defaults` got the first mapping's
`run:` here, where PyYAML (and so Ansible) gives the last one its keys: the same playbook ran
different commands depending on the tool that read it, and no one was told. Now the second `<<`
is a duplicate key like any other, with its line and column and the way to merge several."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """name: merges
steps:
  - &defaults
    id: base
    run: echo from-defaults
    timeout: 30
  - &gpu_defaults
    id: gpu
    run: echo from-gpu
  - id: both
    <<: *defaults
    <<: *gpu_defaults
"""


def test_two_merge_keys_in_a_step_are_a_duplicate_key(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(PLAYBOOK)
    for command in (["run", str(path), "--host", "local", "--out", str(tmp_path / "runs")], ["playbooks", "validate", str(path)]):
        result = run_cli(*command)
        assert result.code == 2, (result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
        assert f"{path}:12:5: duplicate key '<<'" in result.stderr, result.stderr
        assert "the first '<<' is on line 11" in result.stderr and "<<: [*a, *b]" in result.stderr
    assert not (tmp_path / "runs").exists()


def test_one_merge_key_with_a_list_still_merges_the_first_listed_first(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(PLAYBOOK.replace("    <<: *defaults\n    <<: *gpu_defaults\n", "    <<: [*defaults, *gpu_defaults]\n"))
    result = run_cli("run", str(path), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    both = {step["id"]: step for step in json.loads(result.stdout)["steps"]}["both"]
    assert both["status"] == "passed" and both["stdout"] == "from-defaults\n"
