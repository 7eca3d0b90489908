"""A fetch step that names no file, or a dest outside the run's artifacts, is refused when the
playbook loads, with file:line:column and the line to write.

`src: []` (a list left for later) copied nothing and the step passed: the report said the logs
were looked at. `src: ""`, `dest: /tmp/logs` (a path on the controller, as scp reads it) and
`dest: ../logs` failed each host halfway through the run with SD003 ("refusing path outside the
artifacts folder"), after the steps before it had run."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

STEP = """\
name: server_logs
steps:
  - id: uname
    run: uname -a
  - id: logs
    title: Copy the server log
    fetch:
{fetch}
"""


def _cli(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=tmp_path,
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


@pytest.mark.parametrize(("fetch", "where", "says"), [
    ("      src: []\n      dest: logs", "8:12", "fetch src lists no file: name the remote file, e.g. src: /var/log/sglang.log"),
    ("      src: ''\n      dest: logs", "8:12", "a fetch src is empty"),
    ("      src: /var/log/sglang.log\n      dest: /tmp/logs", "9:13",
     "fetch dest is a folder inside the run's artifacts, not a path on this machine: write dest: tmp/logs"),
    ("      src: /var/log/sglang.log\n      dest: ../../logs", "9:13",
     "fetch dest '../../logs' climbs out of the run's artifacts folder: write dest: logs"),
])
def test_refused_when_the_playbook_loads(tmp_path, fetch, where, says):
    (tmp_path / "logs.yaml").write_text(STEP.format(fetch=fetch))
    validated = _cli(tmp_path, "playbooks", "validate", "logs.yaml")
    assert validated.returncode == 2, validated.stdout + validated.stderr
    said = " ".join((validated.stdout + validated.stderr).split())
    assert f"logs.yaml:{where}: {says}" in said
    assert "Traceback" not in said
    ran = _cli(tmp_path, "run", "logs.yaml", "--host", "local", "--out", "runs")
    assert ran.returncode == 2
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


@pytest.mark.parametrize("dest", ["logs", "server/../logs", "./logs", "{{ host }}/logs", ""])
def test_folders_inside_artifacts_and_templated_ones_load(tmp_path, dest):
    fetch = f"      src: [/etc/hostname]\n      dest: '{dest}'"
    (tmp_path / "logs.yaml").write_text(STEP.format(fetch=fetch))
    validated = _cli(tmp_path, "playbooks", "validate", "logs.yaml")
    assert validated.returncode == 0, validated.stdout + validated.stderr


def test_a_fetch_into_a_sub_folder_still_copies(tmp_path):
    (tmp_path / "logs.yaml").write_text(STEP.format(fetch="      src: /etc/hostname\n      dest: server/../logs"))
    ran = _cli(tmp_path, "run", "logs.yaml", "--host", "local", "--out", "runs")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert (run_dir / "artifacts" / "local" / "logs" / "hostname").read_bytes() == open("/etc/hostname", "rb").read()
