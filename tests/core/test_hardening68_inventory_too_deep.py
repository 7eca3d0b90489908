"""An inventory (or its group_vars file) that nests lists or mappings thousands of levels deep is
refused in one line at file:line:column, as a playbook or a --var-file is (playbook/yaml_nodes.py,
MAX_DEPTH): PyYAML composes recursively, and `-i inv.yaml` with a 10,000-level `[[[...]]]` value
ended `spec-debug run` in a RecursionError traceback, touching no host and naming no file."""

from __future__ import annotations

from tests.conftest import run_cli

PLAYBOOK = """name: vf
vars:
  x: ""
steps:
  - id: a
    run: echo {{ x }}
"""

DEEP = "[" * 10000 + "]" * 10000


def _run(tmp_path, inventory):
    playbook = tmp_path / "vf.yaml"
    playbook.write_text(PLAYBOOK)
    return run_cli("run", str(playbook), "-i", str(inventory), "--out", str(tmp_path / "runs"))


def test_a_yaml_inventory_nested_too_deep_is_refused_at_its_place(tmp_path):
    inventory = tmp_path / "inv.yaml"
    inventory.write_text(f"all:\n  hosts:\n    local:\n      x: {DEEP}\n")
    result = _run(tmp_path, inventory)
    assert result.code == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and "RecursionError" not in result.stderr, result.stderr[-2000:]
    assert f"{inventory}:4:70: the YAML nests more than 64 levels deep" in result.stderr, result.stderr[-2000:]
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_an_inventory_without_a_yaml_name_nested_too_deep_is_refused(tmp_path):
    inventory = tmp_path / "hosts"  # no extension: read as YAML when it parses as a mapping
    inventory.write_text(f"all:\n  hosts:\n    local:\n      x: {DEEP}\n")
    result = _run(tmp_path, inventory)
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert f"{inventory}:4:70: the YAML nests more than 64 levels deep" in result.stderr, result.stderr[-2000:]


def test_a_group_vars_file_nested_too_deep_is_refused_at_its_place(tmp_path):
    inventory = tmp_path / "inv.yaml"
    inventory.write_text("all:\n  hosts:\n    local:\n")
    (tmp_path / "group_vars").mkdir()
    group_vars = tmp_path / "group_vars" / "all.yaml"
    group_vars.write_text(f"x: {DEEP}\n")
    result = _run(tmp_path, inventory)
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert f"{group_vars}:1:67: the YAML nests more than 64 levels deep" in result.stderr, result.stderr[-2000:]


def test_an_inventory_of_nested_aliases_is_refused_at_the_alias_past_the_bound(tmp_path):
    """Nine lines of nine aliases each stand for 387 million values (a "billion laughs"): `run`
    built them into every host's vars and walked them (typed values, masking, run.json) for over
    a minute before anything was said. Refused as the playbook loader refuses it."""
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    inventory = tmp_path / "inv.yaml"
    inventory.write_text("all:\n  hosts:\n    local:\n" + "".join(f"      {line}\n" for line in lines))
    result = _run(tmp_path, inventory)
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr[-2000:]
    said = " ".join(result.stderr.split())
    assert said.startswith(f"error: {inventory}:9:20: the inventory expands to more than 200000 values "
                           "(207578 of them through YAML aliases)"), said
    assert said.endswith("hint: write the repeated parts out, or use fewer nested aliases"), said
