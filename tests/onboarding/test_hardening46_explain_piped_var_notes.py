"""`spec-debug distill SESSION -o - | spec-debug explain -`, or `curl URL | spec-debug explain -`:
the walkthrough's vars table read each var's comment ("what it is") by opening the playbook's
path a second time, and a pipe gives nothing the second time: every note was empty, where the
same file on disk showed them. The notes now come from the text the loader read."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PLAYBOOK = """\
name: gpu_check
vars:
  port: "30000"  # the server port
  log: /var/log/sglang.log  # where the server writes its log
steps:
  - id: tail_log
    run: "tail -n 5 {{ log }}; echo {{ port }}"
"""


def _explain(argument: str, stdin: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "spec_debug", "explain", argument, "--json"], input=stdin,
                          capture_output=True, text=True, env=env, timeout=120)


def test_a_piped_playbook_keeps_its_var_notes():
    for argument in ("-", "/dev/stdin"):
        proc = _explain(argument, PLAYBOOK)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["var_notes"] == {"port": "the server port",
                                                         "log": "where the server writes its log"}


def test_a_piped_playbook_with_a_byte_order_mark_keeps_them_too():
    proc = _explain("-", "\ufeff" + PLAYBOOK)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["var_notes"]["port"] == "the server port"
