"""A secret command piped into one given a quoted operator character as its argument: `vault kv get
-field=creds secret/db | cut -d '|' -f 2`, `... | awk -F '|' '{print $1}'` (a credential stored
as `user|password`, the password cut out of it). secret_commands.py split the command with its
own shlex tokenizer, which removed the quotes and then read the `'|'` as a pipe, so `-f 2` was a
command that ends the pipeline and the step was not one printing a secret: a `--host local` run
kept the password in clear in run.json and the reports. Now it reads the command with the
splitter the session analyzer uses (spec_debug/shell_split.py), where a quoted `'|'` is a word:
the step's output is masked whole."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

VALUE = "Pq7-mZ2vLw9xRt4K"


def test_a_password_cut_out_at_a_quoted_bar_is_masked(tmp_path):
    secret = tmp_path / "db_password"
    secret.write_text(f"app|{VALUE}\n")
    (tmp_path / "p.yaml").write_text(
        f"name: b\nsteps:\n  - id: read\n    run: cat {secret} | cut -d '|' -f 2\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert record["steps"][0]["stdout"] == f"{MASK}\n"
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert VALUE not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("vault kv get -field=creds secret/db | cut -d '|' -f 2", True),
    ("vault kv get -field=creds secret/db | awk -F '|' '{print $1}'", True),
    ("vault kv get -field=creds secret/db | grep '>'", True),
    ("vault kv get -field=creds secret/db | cut -d '|' -f2 > /tmp/pw", False),
    ("vault kv get -field=creds secret/db | cut -d '|' -f 2 | wc -c", False),
    ("echo '|' ; vault kv status", False),
])
def test_a_quoted_operator_character_is_a_word(command, prints):
    assert prints_secret_value(command) is prints
