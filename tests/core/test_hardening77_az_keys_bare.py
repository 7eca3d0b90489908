"""`az storage account keys list -g rg -n acct --query [0].value -o tsv` (the storage key a
session reads to mount the bucket its checkpoints live in) prints the account key alone, 88
characters of base64 and a new line, with no name before it; secret_commands.py read az's
keyvault only, and a real `--host local` run kept the key in run.json and the reports. Now an az
command that lists a resource's keys or credentials (`storage account keys list`, `cosmosdb
keys list`, `redis list-keys`, `acr credential show`) with a --query of a key's value prints a
secret's value, and the step's output is masked whole; a query of the keys' names does not."""

from __future__ import annotations

import stat

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

KEY = "q3Vt8bN2xL0pR7sW4yZ1cE6hJ9mK5aD2fG8iU3oP7tY0vB4nM6wQ1zX9rS5lC2kH8jF3gA7dE0uI4oP6yT1eR9w=="


def test_an_account_key_queried_alone_is_masked(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    az = bin_dir / "az"  # az's own output for this query (tsv of one string: the value and a new line)
    az.write_text(f"#!/bin/sh\nprintf '%s\\n' '{KEY}'\n")
    az.chmod(az.stat().st_mode | stat.S_IEXEC)
    command = f"PATH={bin_dir}:$PATH az storage account keys list -g rg -n ckpts --query [0].value -o tsv"
    (tmp_path / "p.yaml").write_text(f"name: b\nsteps:\n  - id: key\n    run: {command}\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert record["steps"][0]["stdout"].splitlines() == [MASK]
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert KEY not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("az storage account keys list -g rg -n acct --query [0].value -o tsv", True),
    ("az storage account keys list -g rg -n acct --query \"[?keyName=='key1'].value\" -o tsv", True),
    ("az cosmosdb keys list -g rg -n db --query primaryMasterKey -o tsv", True),
    ("az redis list-keys -g rg -n cache --query primaryKey -o tsv", True),
    ("az acr credential show -n reg --query 'passwords[0].value' -o tsv", True),
    ("az keyvault secret show --vault-name kv -n hf-token --query value -o tsv", True),
    ("az storage account keys list -g rg -n acct --query [].keyName -o tsv", False),
    ("az acr credential show -n reg --query username -o tsv", False),
    ("az account show --query id -o tsv", False),
    ("az storage account keys list -g rg -n acct --query [0].value -o tsv | wc -c", False),
])
def test_az_key_queries(command, prints):
    assert prints_secret_value(command) is prints
