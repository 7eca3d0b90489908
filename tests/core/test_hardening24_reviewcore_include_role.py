"""Ansible's include_role: {name: gpu} and include_tasks: {file: x.yml} (the mapping forms,
docs.ansible.com playbooks_reuse_roles / include_tasks module): 984ddba's include hint said
'copy the steps of OTHER.yaml', a file that is not there. It names the role's tasks file
(roles/gpu/tasks/main.yml) or the file: given. Through the real CLI."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize(("step", "named"), [
    ("include_role:\n      name: gpu", "copy the steps of roles/gpu/tasks/main.yml under steps:"),
    ("import_role:\n      name: gpu", "copy the steps of roles/gpu/tasks/main.yml under steps:"),
    ("include_tasks:\n      file: tasks/gpu.yml", "copy the steps of tasks/gpu.yml under steps:"),
    ("include_tasks: tasks/gpu.yml", "copy the steps of tasks/gpu.yml under steps:"),
])
def test_the_include_hint_names_the_file_the_mapping_names(tmp_path, step, named):
    (tmp_path / "p.yaml").write_text(f"name: t\nsteps:\n  - id: a\n    {step}\n")
    result = run_cli("playbooks", "validate", "p.yaml", cwd=tmp_path)
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    assert named in " ".join(result.stderr.split()) and "OTHER.yaml" not in result.stderr
