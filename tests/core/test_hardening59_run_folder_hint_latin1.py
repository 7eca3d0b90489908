"""A run folder given as the playbook (`spec-debug run runs/<id>`) is refused with the commands
that were meant: retry its failed hosts, render its report. For a run kept under a folder named
with a byte that is no UTF-8 (a Latin-1 machine's `r\\xe9sultats`), those commands quoted the
folder with shlex.quote, the byte shown as `\\udce9` inside single quotes: pasted, "no run
record". Now it is written in ANSI-C quotes (`$'...\\xe9...'`), which a shell gives back as the
byte (bash, zsh, ksh, POSIX.1-2024 sh). Through the real CLI on --host local."""

from __future__ import annotations

import os
import re
import subprocess

from tests.conftest import run_cli


def test_the_hinted_report_command_runs_as_shown(tmp_path):
    playbook = tmp_path / "pb.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    out = os.fsencode(tmp_path) + b"/r\xe9sultats/runs"
    assert run_cli("run", str(playbook), "--host", "local", "--out", os.fsdecode(out)).code == 0
    (name,) = [n for n in os.listdir(out) if os.path.isdir(out + b"/" + n) and not os.path.islink(out + b"/" + n)]
    refused = run_cli("run", os.fsdecode(out + b"/" + name), "--host", "local")
    assert refused.code == 2 and "is a spec-debug run folder" in refused.stderr, refused.stderr
    command = re.search(r"the report: (spec-debug report .*)$", refused.stderr, re.M).group(1)
    assert "$'" in command, command
    shown = subprocess.run(["bash", "-c", "python3 -m spec_debug " + command.removeprefix("spec-debug ")],
                           capture_output=True, timeout=120, env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert shown.returncode == 0 and b"no run record" not in shown.stderr, shown.stderr.decode("utf-8", "replace")
