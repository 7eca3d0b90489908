"""`cat ~/.pgpass` (PostgreSQL's password file: `host:port:database:user:password` lines, as a
session checks why a metrics exporter cannot log in) printed every password in clear: no name
stands before a password for a pattern to read, and secret_commands.py did not know the file.
A real `--host local` run kept them in run.json and the reports. Now a `.pgpass` (or Windows'
`pgpass.conf`) printed by a command that prints the files it is given is a secret file, and the
step's output is masked whole; `ls -l ~/.pgpass` and `chmod 600 ~/.pgpass` keep theirs."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

PASSWORD = "Xk9pLm2QrT7vWz"


def test_a_pgpass_printed_is_masked(tmp_path):
    pgpass = tmp_path / ".pgpass"
    pgpass.write_text(f"db.internal:5432:vllm_metrics:svc_vllm:{PASSWORD}\n*:*:*:postgres:{PASSWORD}2\n")
    (tmp_path / "p.yaml").write_text(f"name: b\nsteps:\n  - id: creds\n    run: cat {pgpass}\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert record["steps"][0]["stdout"].splitlines() == [MASK, MASK]
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert PASSWORD not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("cat ~/.pgpass", True),
    ("head -n 3 /home/app/.pgpass", True),
    ("ssh db01 cat /var/lib/postgresql/.pgpass", True),
    ("cat .pgpass", True),
    ("cat /c/Users/app/AppData/Roaming/postgresql/pgpass.conf", True),
    ("ls -l ~/.pgpass", False),
    ("chmod 600 ~/.pgpass", False),
    ("cat ~/.pgpass | wc -l", False),
])
def test_pgpass_read(command, prints):
    assert prints_secret_value(command) is prints
