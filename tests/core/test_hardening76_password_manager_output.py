"""A step that reads its API key from a password manager's CLI, which prints the value alone:
1Password's `op read op://Private/vllm/api-key`, `op item get vllm --fields password --reveal`,
Doppler's `doppler secrets get VLLM_API_KEY --plain`, Bitwarden's `bw get password vllm`,
`pass show llm/api-key`. No name and no token shape: a real `--host local` run (a fake `op` on
PATH) kept the key in clear in run.json and the reports. Now these commands' output is masked
whole, as the cloud secret managers' is; their listing and sign-in commands (`op item list`,
`bw list items`, `pass ls`, `pass -c NAME`, which copies it to the clipboard) keep theirs."""

from __future__ import annotations

import os
import stat

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

VALUE = "Pq7-mZ2vLw9xRt4K"


def test_op_read_is_masked(tmp_path):
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    op = bin_dir / "op"  # a fake 1Password CLI for this test, printing the value
    op.write_text(f"#!/bin/sh\necho '{VALUE}'\n")
    op.chmod(op.stat().st_mode | stat.S_IXUSR)
    (tmp_path / "p.yaml").write_text("name: o\nsteps:\n  - id: key\n    run: op read op://Private/vllm/api-key\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out),
                     env={"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert record["steps"][0]["stdout"] == f"{MASK}\n"
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(),
                 (run_dir / "report.html").read_text(), result.stderr):
        assert VALUE not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("op read op://Private/vllm/api-key", True),
    ("op item get vllm --fields password --reveal", True),
    ("doppler secrets get VLLM_API_KEY --plain", True),
    ("bw get password vllm", True),
    ("pass show llm/api-key", True),
    ("pass llm/api-key", True),
    ("op item list", False),
    ("op signin", False),
    ("doppler secrets", False),  # a table of names and values: the names mask them
    ("bw list items", False),
    ("pass ls", False),
    ("pass -c llm/api-key", False),  # to the clipboard
    ("top -b -n 1", False),
])
def test_password_managers(command: str, prints: bool) -> None:
    assert prints_secret_value(command) is prints
