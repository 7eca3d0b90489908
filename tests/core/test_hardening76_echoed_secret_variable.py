"""A step that reads a secret into a variable and then echoes it, to see what it got:
`DB_PASS=$(vault kv get -field=password secret/db); echo "using $DB_PASS"` (or `export
HF_API_KEY="$(gcloud secrets versions access latest --secret=x)" && echo ${HF_API_KEY}`). The
secret command's own output went into the variable, so the step was not read as one that prints a
secret, and the echo printed the value bare: a real `--host local` run kept it in clear in run.json
and the reports. Now a variable set from a secret command is followed through the script: echo or
printf of it masks the step's output whole, as the command itself would; an echo of its length
(`${#DB_PASS}`), of another variable, or piped into `wc -c` keeps the output."""

from __future__ import annotations

import os
import stat

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

VALUE = "Pq7-mZ2vLw9xRt4K"

PLAYBOOK = """\
name: echoed
steps:
  - id: echoed
    run: DB_PASS=$(vault kv get -field=password secret/db); echo "connecting as svc with $DB_PASS"
"""


def test_the_echoed_variable_is_masked(tmp_path):
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    vault = bin_dir / "vault"  # a fake vault CLI for this test, printing the value
    vault.write_text(f"#!/bin/sh\necho '{VALUE}'\n")
    vault.chmod(vault.stat().st_mode | stat.S_IXUSR)
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out),
                     env={"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert record["steps"][0]["stdout"] == f"{MASK}\n"
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(),
                 (run_dir / "report.html").read_text(), result.stdout, result.stderr):
        assert VALUE not in text


@pytest.mark.parametrize(("command", "prints"), [
    ('DB_PASS=$(vault kv get -field=password db); echo "$DB_PASS"', True),
    ("DB_PASS=$(vault kv get -field=password db)\necho $DB_PASS", True),
    ('export HF_API_KEY="$(gcloud secrets versions access latest --secret=x)" && echo ${HF_API_KEY}', True),
    ('DB_PASS=$(vault kv get -field=password db); printf "%s\\n" "${DB_PASS:0:4}"', True),  # its head
    ('DB_PASS=$(vault kv get -field=password db); echo "${#DB_PASS}"', False),  # its length
    ("DB_PASS=$(vault kv get -field=password db); echo $DB_PASS_LEN", False),  # another variable
    ("DB_PASS=$(vault kv get -field=password db); echo ok", False),
    ("DB_PASS=$(vault kv get -field=password db); echo $DB_PASS | wc -c", False),
    ("GPUS=$(nvidia-smi -L); echo $GPUS", False),  # no secret command
])
def test_variables_followed(command: str, prints: bool) -> None:
    assert prints_secret_value(command) is prints
