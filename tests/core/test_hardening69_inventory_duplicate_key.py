"""A key given twice in a YAML inventory or a group_vars file is said before the run starts.

PyYAML keeps the last of two equal keys and says nothing: a host pasted in again under `hosts:`
with other vars, or `nap:` set twice in group_vars/all.yml, ran with the last value and no word
that the first was dropped. Ansible reads such a file the same way, and warns ("found a
duplicate dict key (h1). Using last defined value only", its DUPLICATE_YAML_DICT_KEY default
`warn`); so does spec-debug now, at the key's file:line:column. A key a merge brings in
(`<<: *defaults`, meant to be overridden) is not a duplicate.
"""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = "name: dup\nvars:\n  nap: 0\nsteps:\n  - id: nap\n    run: echo nap={{ vars.nap }}\n"


def _run(folder, inventory):
    (folder / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", "p.yaml", "-i", inventory, "--out", "runs", "--json", cwd=folder)
    assert result.code == 0, result.stderr
    return result, json.loads(result.stdout)


def test_a_host_given_twice_is_warned_of_and_the_last_is_used(tmp_path):
    (tmp_path / "hosts.yml").write_text(
        "all:\n  hosts:\n    gpu01:\n      ansible_connection: local\n      nap: 1\n"
        "    gpu01:\n      ansible_connection: local\n      nap: 2\n")
    result, record = _run(tmp_path, "hosts.yml")
    assert ("warning: hosts.yml:6:5: duplicate key 'gpu01': this value is used, the one on line 3 is dropped "
            "(as Ansible does)") in result.stderr.splitlines()  # was no word at all
    assert record["steps"][0]["stdout"] == "nap=2\n"


def test_a_var_given_twice_in_group_vars_is_warned_of(tmp_path):
    (tmp_path / "group_vars").mkdir()
    (tmp_path / "group_vars" / "all.yml").write_text("nap: 3\nnap: 4\n")
    (tmp_path / "hosts.yml").write_text("all:\n  hosts:\n    gpu01:\n      ansible_connection: local\n")
    result, record = _run(tmp_path, "hosts.yml")
    assert ("warning: group_vars/all.yml:2:1: duplicate key 'nap': this value is used, "
            "the one on line 1 is dropped (as Ansible does)") in result.stderr.splitlines()
    assert record["steps"][0]["stdout"] == "nap=4\n"


def test_keys_a_merge_brings_in_are_no_duplicates(tmp_path):
    (tmp_path / "hosts.yml").write_text(
        "all:\n  vars: &defaults\n    nap: 1\n    ansible_connection: local\n"
        "  hosts:\n    gpu01:\n      <<: *defaults\n      nap: 5\n")
    result, record = _run(tmp_path, "hosts.yml")
    assert "duplicate key" not in result.stderr, result.stderr
    assert record["steps"][0]["stdout"] == "nap=5\n"
