"""A secret printed bare whose value holds spaces (a passphrase: `correct horse battery staple`,
as `aws secretsmanager get-secret-value --query SecretString --output text` prints it): the step's
own output was masked whole, but the value was learned for the rest of the run only when it was
one word, so a fact captured from it under another name (`(?P<phrase>.+)`) and a later step that
echoed it kept the passphrase in clear in run.json and the reports. Now each line the secret
command printed is learned whole, spaces and all."""

from __future__ import annotations

import os
import stat

from spec_debug.redact import MASK
from tests.conftest import only_run, run_cli

VALUE = "correct horse battery staple"

PLAYBOOK = """\
name: phrase
steps:
  - id: read
    run: aws secretsmanager get-secret-value --secret-id db/phrase --query SecretString --output text
    capture:
      - regex: '^(?P<phrase>.+)$'
  - id: later
    run: echo "unlocking with {{ facts.phrase }}"
"""


def test_a_passphrase_is_masked_in_facts_and_later_steps(tmp_path):
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    aws = bin_dir / "aws"  # a fake aws CLI for this test, printing the passphrase
    aws.write_text(f"#!/bin/sh\necho '{VALUE}'\n")
    aws.chmod(aws.stat().st_mode | stat.S_IXUSR)
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out),
                     env={"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    read, later = record["steps"]
    assert read["stdout"] == f"{MASK}\n"
    assert record["facts"]["local"]["phrase"] == MASK
    assert later["stdout"] == f"unlocking with {MASK}\n"
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(),
                 (run_dir / "report.html").read_text(), result.stderr):
        assert VALUE not in text and "battery staple" not in text
