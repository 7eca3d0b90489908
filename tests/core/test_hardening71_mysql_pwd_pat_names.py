"""MYSQL_PWD (the password the MySQL client reads from the environment) and GITHUB_PAT (a GitHub
personal access token, as R's gh/usethis name it) hold secrets, wherever their name says so.

Before: only `MYSQL_PWD=value` in a command was masked (the client pattern); a compose file's
`MYSQL_PWD: ...`, a Kubernetes env list's {"name": "MYSQL_PWD", "value": ...}, Python's
`os.environ["MYSQL_PWD"] = "..."`, a JSON dump's "MYSQL_PWD": "..." and `--var mysql_pwd=...` /
`--var github_pat=...` in a run (is_secret_name said no) kept the value as typed. PWD, the working
directory, stays readable.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.redact import MASK, is_secret_name, may_hold_secret, redact_text, redact_value
from tests.conftest import only_run, run_cli

SECRET = "Zq8wPl0mNo41"


@pytest.mark.parametrize("name", ["mysql_pwd", "MYSQL_PWD", "github_pat", "GITHUB_PAT", "GH_PAT", "gitlab_pat",
                                  "MYSQL_PWD_2"])
def test_the_name_is_a_secret_name(name: str) -> None:
    assert is_secret_name(name)
    assert redact_value({name: SECRET}) == {name: MASK}


@pytest.mark.parametrize("name", ["PWD", "OLDPWD", "old_pwd", "pwd", "pat", "path", "stop_pat", "high_pat"])
def test_other_names_stay(name: str) -> None:
    assert not is_secret_name(name)
    assert redact_value({name: SECRET}) == {name: SECRET}


@pytest.mark.parametrize("text, masked", [
    (f"    environment:\n      MYSQL_PWD: {SECRET}\n", f"    environment:\n      MYSQL_PWD: {MASK}\n"),
    (f'{{"name": "MYSQL_PWD", "value": "{SECRET}"}}', f'{{"name": "MYSQL_PWD", "value": "{MASK}"}}'),
    (f"        - name: MYSQL_PWD\n          value: {SECRET}\n", f"        - name: MYSQL_PWD\n          value: {MASK}\n"),
    (f'os.environ["MYSQL_PWD"] = "{SECRET}"', f'os.environ["MYSQL_PWD"] = "{MASK}"'),
    (f'{{"MYSQL_PWD": "{SECRET}", "MYSQL_HOST": "db01"}}', f'{{"MYSQL_PWD": "{MASK}", "MYSQL_HOST": "db01"}}'),
    (f"MYSQL_PWD={SECRET} mysql -u root -e 'select 1'", f"MYSQL_PWD={MASK} mysql -u root -e 'select 1'"),
])
def test_mysql_pwd_in_text_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", ["PWD=/root OLDPWD=/tmp SHLVL=1", "export MYSQL_PWD=$DB_PASS",
                                  '{"name": "MYSQL_PWD", "valueFrom": {"secretKeyRef": {"name": "db"}}}'])
def test_what_is_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text


@pytest.mark.parametrize("name", ["mysql_pwd", "github_pat"])
def test_run_json_masks_the_var(tmp_path, name: str) -> None:
    playbook = tmp_path / "p.yaml"
    playbook.write_text(
        f"name: p\nvars:\n  {name}: ''\nsteps:\n"
        "  - id: call\n"
        f"    run: |\n      echo \"auth={{{{ {name} }}}}\"\n"
        "    expect:\n      - exit_code: 0\n", encoding="utf-8")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var", f"{name}={SECRET}")
    assert result.code == 0, result.stderr
    run_dir, record = only_run(out)
    assert record["steps"][0]["stdout"] == f"auth={MASK}\n"
    written = "".join(p.read_text(encoding="utf-8", errors="replace") for p in run_dir.rglob("*") if p.is_file())
    assert SECRET not in written and SECRET not in json.dumps(record)
