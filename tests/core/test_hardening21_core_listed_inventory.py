"""Inventories as fleets keep them when hosts come from a cloud: `ansible-inventory --list`'s
JSON (what every dynamic inventory script prints), an inventory plugin's config, and the script.

The JSON (host vars under _meta.hostvars, a group's hosts and children as lists; Ansible reads it
in lib/ansible/plugins/inventory/script.py, ansible/ansible) was refused with "group _meta:
unknown key 'hostvars'". A plugin config (`plugin: amazon.aws.aws_ec2`) was refused as "group
plugin must be a mapping", and a script as "expected key=value after the host name": neither said
what the file is, or how to get hosts from it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

LISTED = {
    "_meta": {
        "hostvars": {
            "gpu01": {"ansible_connection": "local", "draft_dir": "/models/eagle3-a"},
            "gpu02": {"ansible_connection": "local"},
            "cpu01": {"ansible_connection": "local"},
        }
    },
    "all": {"children": ["ungrouped", "gpus"]},
    "gpus": {"hosts": ["gpu01", "gpu02"], "vars": {"draft_dir": "/models/eagle3"}},
    "ungrouped": {"hosts": ["cpu01"]},
}

PLAYBOOK = """\
name: drafts
vars:
  draft_dir: /unset
steps:
  - id: draft
    run: echo "draft at {{ draft_dir }}"
"""


def _run(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "drafts.yaml").write_text(PLAYBOOK)
    return subprocess.run([sys.executable, "-m", "spec_debug", "run", "drafts.yaml", "--out", "runs", "--batch", *args],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


def test_ansible_inventory_list_json_runs_its_groups_with_their_vars(tmp_path):
    (tmp_path / "hosts.json").write_text(json.dumps(LISTED, indent=4))
    ran = _run(tmp_path, "-i", "hosts.json", "--limit", "gpus")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    (run_dir,) = (tmp_path / "runs").iterdir()
    record = json.loads((run_dir / "run.json").read_text())
    said = {s["host"]: s["stdout"].strip() for s in record["steps"]}
    # A host's own vars win over its group's, as in Ansible.
    assert said == {"gpu01": "draft at /models/eagle3-a", "gpu02": "draft at /models/eagle3"}


def test_a_host_listed_only_in_hostvars_is_ungrouped(tmp_path):
    listed = {"_meta": {"hostvars": {"gpu07": {"ansible_connection": "local"}}}, "all": {"children": ["ungrouped"]}}
    (tmp_path / "hosts.json").write_text(json.dumps(listed))
    ran = _run(tmp_path, "-i", "hosts.json", "--limit", "ungrouped")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert [s["host"] for s in json.loads((run_dir / "run.json").read_text())["steps"]] == ["gpu07"]


def test_an_inventory_plugin_config_says_how_to_get_its_hosts(tmp_path):
    (tmp_path / "aws_ec2.yml").write_text("plugin: amazon.aws.aws_ec2\nregions: [us-east-1]\nkeyed_groups:\n  - key: tags.role\n")
    ran = _run(tmp_path, "-i", "aws_ec2.yml")
    assert ran.returncode == 2
    said = " ".join(ran.stderr.split())
    assert "aws_ec2.yml configures the Ansible inventory plugin 'amazon.aws.aws_ec2', which spec-debug cannot run" in said
    assert "ansible-inventory -i aws_ec2.yml --list > hosts.json, then -i hosts.json" in said
    assert "Traceback" not in said


def test_an_inventory_script_is_not_run_and_says_what_to_pass(tmp_path):
    script = tmp_path / "ec2.py"
    script.write_text("#!/usr/bin/env python3\nimport json\nprint(json.dumps({'gpus': ['gpu01']}))\n")
    script.chmod(0o755)
    ran = _run(tmp_path, "-i", "ec2.py")
    assert ran.returncode == 2
    said = " ".join(ran.stderr.split())
    assert "ec2.py is an inventory script (it starts with #!), which spec-debug does not run" in said
    assert "ec2.py --list > hosts.json" in said


def test_a_listed_group_of_the_wrong_shape_is_one_clear_line(tmp_path):
    listed = {"_meta": {"hostvars": {}}, "gpus": {"hosts": "gpu01"}}
    (tmp_path / "hosts.json").write_text(json.dumps(listed))
    ran = _run(tmp_path, "-i", "hosts.json")
    assert ran.returncode == 2
    assert "hosts.json: gpus.hosts must be a list of names (as ansible-inventory --list prints it)" in " ".join(ran.stderr.split())
