"""A --var-file value is data, as a --var is: only the playbook's defaults and an inventory's
values are rendered. `draft_dir: "{{ model_dir }}/eagle3"` in a var file (Ansible renders its
`-e @vars.yml`, which spec-debug points to --var-file for) went to the host as the braces: the
step ran `ls '{{ model_dir }}/eagle3'`, failed with "No such file or directory", and the report
blamed a missing checkpoint. Such a value is now refused at its line in the file before any host
is touched; braces that read no var of the playbook (a Go template for docker, a chat template)
are still the value as given, and a value a --var replaces is not looked at."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """\
name: draft_files
vars:
  model_dir: /models/llama
  draft_dir: ""
  docker_format: ""
steps:
  - id: draft_files
    run: echo {{ draft_dir }} {{ docker_format }}
"""


def _run(tmp_path: Path, var_file_text: str, *extra: str):
    playbook = tmp_path / "draft_files.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    var_file = tmp_path / "cluster.yaml"
    var_file.write_text(var_file_text, encoding="utf-8")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var-file", str(var_file), "--json", *extra)
    return result, var_file, out


def test_a_var_file_value_that_reads_a_var_is_refused_at_its_line(tmp_path: Path) -> None:
    result, var_file, out = _run(tmp_path, 'model_dir: /data/llama\ndraft_dir: "{{ model_dir }}/eagle3"\n')
    assert result.code == 2
    first, hint = result.stderr.splitlines()[:2]
    assert first == (f"error: {var_file}:2:12: draft_dir is '{{{{ model_dir }}}}/eagle3' as written: a --var-file value "
                     "is used as given, not as a template (the command would get the braces, not the value of "
                     "model_dir) (at draft_dir)")
    assert hint == ('  hint: write the value itself, as a --var takes it; a value built from other vars is a default '
                    'in the playbook\'s vars: (draft_dir: "{{ model_dir }}/eagle3"), rendered for each host')
    assert not out.exists() or not any(out.iterdir())  # no host touched, no run folder


def test_braces_that_read_no_var_and_values_a_var_replaces_are_left_as_given(tmp_path: Path) -> None:
    result, _, _ = _run(tmp_path, 'draft_dir: "{{ model_dir }}/eagle3"\ndocker_format: "{{.State.Status}}"\n',
                        "--var", "draft_dir=/data/llama/eagle3")
    assert result.code == 0, result.stderr
    step = json.loads(result.stdout)["steps"][0]
    assert step["stdout"] == "/data/llama/eagle3 {{.State.Status}}\n"
