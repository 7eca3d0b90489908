"""A var that is None reached a probe's `with:` as the text "None". A --var-file with the keys
left blank (`server_cmdline:`, YAML's null: a team's template of vars), `--var x=null` or a
playbook default `x: ~` gave launch_flags the server command "None" ("the server command could
not be read: not an SGLang or vLLM server command"), drafter_eval the device "None" ("--var
device 'None': use cpu, cuda or cuda:N") and path probes a file named None. A `run:` command
already wrote such a var as ''; `with:` now does the same, so the probe reads it as not given
("Not checked: --var server_cmdline='...'"), as for `--var server_cmdline=`. Real
`spec-debug run --host local` runs of the launch_flags probe."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _run(tmp_path: Path, default: str, *extra: str) -> dict:
    (tmp_path / "p.yaml").write_text(
        f"name: q\nvars:\n  server_cmdline: {default}\n  server_log: \"\"\nsteps:\n  - id: launch\n    probe: launch_flags\n"
        '    with:\n      server_cmdline: "{{ server_cmdline }}"\n      server_log: "{{ vars.server_log }}"\n')
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "250", "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "-o", "runs", *extra],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())


@pytest.mark.parametrize(("default", "given"), [
    ('""', ("--var-file", "vars.yaml")),  # server_cmdline: and server_log: left blank in the file
    ('""', ("--var", "server_cmdline=null", "--var", "server_log=null")),
    ("~", ("--var", "server_log=null")),  # the playbook's own default is None
])
def test_a_var_that_is_none_reaches_the_probe_as_not_given(tmp_path: Path, default: str, given: tuple[str, ...]) -> None:
    (tmp_path / "vars.yaml").write_text("server_cmdline:\nserver_log:\n")
    record = _run(tmp_path, default, *given)
    [step] = record["steps"]
    assert step["status"] == "passed", step["message"]
    args = json.loads(shlex.split(step["command"])[-1])
    assert args == {"server_cmdline": "", "server_log": ""}  # was: "None", "None"
    titles = [f["title"] for f in record["findings"]]
    assert "Not checked: --var server_cmdline='...' (the server's full command line)" in titles, titles
