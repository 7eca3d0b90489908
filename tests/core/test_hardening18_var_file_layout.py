"""--var-file in the wrong layout: the `vars:` block copied from a playbook, a playbook itself,
or a .env file. The first ran into "--var vars is not a var of playbook 'host_smoke'", naming
neither the file nor the nesting."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.var_file import load_var_file


def test_vars_nested_under_vars_name_the_file_line_and_the_fix(tmp_path):
    path = tmp_path / "gpu01.yaml"
    path.write_text("# copied from the playbook\nvars:\n  python: ~/ml-env/bin/python\n  min_free_gb: 50\n")
    with pytest.raises(PlaybookError) as caught:
        load_var_file(path)
    error = caught.value
    assert (error.path, error.line, error.column) == (str(path), 2, 1)
    assert "nested under 'vars:'" in error.message
    assert "python: ..., min_free_gb: ..." in (error.hint or "")


def test_the_run_stops_on_the_file_not_on_a_var_named_vars(tmp_path):
    (tmp_path / "v.yaml").write_text("vars:\n  min_free_gb: 50\n")
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "host_smoke", "--host", "local",
                           "--var-file", "v.yaml", "--out", "runs"], capture_output=True, text=True, cwd=tmp_path,
                          timeout=60, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 2
    assert "v.yaml:1:1: the vars are nested under 'vars:'" in proc.stderr
    assert "--var vars is not a var" not in proc.stderr


def test_a_playbook_given_as_a_var_file(tmp_path):
    path = tmp_path / "check.yaml"
    path.write_text("name: check\nsteps:\n  - id: a\n    run: echo hi\n")
    with pytest.raises(PlaybookError) as caught:
        load_var_file(path)
    assert "is a playbook, not a var file" in caught.value.message
    assert f"spec-debug run {path}" in (caught.value.hint or "")


def test_a_dotenv_file_is_told_how_to_write_it(tmp_path):
    path = tmp_path / "gpu.env"
    path.write_text("# from docker\nexport CUDA_VISIBLE_DEVICES=0\nMODEL=/models/kimi\n")
    with pytest.raises(PlaybookError) as caught:
        load_var_file(path)
    assert "reads like a .env file" in (caught.value.hint or "")


def test_a_flat_var_file_still_loads(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text("python: ~/ml-env/bin/python\nvarsity: 1\nsteps_per_run: 3\n")
    assert load_var_file(path) == {"python": "~/ml-env/bin/python", "varsity": 1, "steps_per_run": 3}
