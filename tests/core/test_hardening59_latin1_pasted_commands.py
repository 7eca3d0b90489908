"""The other commands spec-debug gives to paste, for a path with a byte that is no UTF-8 (a
Latin-1 machine's `r\\xe9sultats`, the é one byte 0xE9): the commands that write a run's reports
again (after a full disk or a Ctrl-C while they were written, store.report_commands) and the
--var-file of a --retry-failed refused for a masked secret. Both quoted with shlex.quote: the
byte came out as text inside single quotes, a path that does not exist when pasted. Now in
ANSI-C quotes (`$'...\\xe9...'`), which a shell gives back as the byte. Real runs through the
real CLI on --host local; the commands are run by bash as shown."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from spec_debug.store import report_commands
from tests.conftest import only_run, run_cli


def _python_m(command: str) -> list[str]:
    return ["bash", "-c", "python3 -m spec_debug " + command.removeprefix("spec-debug ")]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.getcwd()}


def test_the_commands_that_write_the_reports_again_run_as_shown(tmp_path):
    playbook = tmp_path / "pb.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    out = os.fsencode(tmp_path) + b"/r\xe9sultats/runs"
    assert run_cli("run", str(playbook), "--host", "local", "--out", os.fsdecode(out)).code == 0
    (name,) = [n for n in os.listdir(out) if os.path.isdir(out + b"/" + n) and not os.path.islink(out + b"/" + n)]
    run_dir = Path(os.fsdecode(out + b"/" + name))
    (run_dir / "report.md").unlink()  # what a full disk left unwritten
    (command,) = report_commands(run_dir, ["report.md"])
    assert "$'" in command, command
    done = subprocess.run(_python_m(command), capture_output=True, timeout=120, env=_env())
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert (run_dir / "report.md").is_file()


def test_the_var_file_a_refused_retry_names_runs_as_shown(tmp_path):
    playbook = tmp_path / "pb.yaml"
    playbook.write_text('name: t\nvars:\n  hf_token: ""\nsteps:\n  - id: a\n    run: "false"\n', encoding="utf-8")
    folder = os.fsencode(tmp_path) + b"/secr\xe8ts"
    os.mkdir(folder)
    var_file = folder + b"/vars.yaml"
    with open(var_file, "w", encoding="utf-8") as file:
        file.write("hf_token: hf_abcdefghijklmnopqrstuvwxyz\n")
    first = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--var-file", os.fsdecode(var_file))
    assert first.code == 1, first.stderr
    run_dir, _ = only_run(tmp_path / "runs")
    refused = run_cli("run", str(playbook), "--out", str(tmp_path / "again"), "--retry-failed", str(run_dir))
    assert refused.code == 2 and "was masked" in refused.stderr, refused.stderr
    given = re.search(r"hint: (--var-file \S+) \(that run read it\)", refused.stderr).group(1)
    assert "$'" in given, given
    again = subprocess.run(_python_m(f"run {playbook} --out {tmp_path / 'again'} --retry-failed {run_dir} {given}"),
                           capture_output=True, timeout=120, env=_env())
    stderr = again.stderr.decode("utf-8", "replace")
    assert again.returncode == 1 and "was masked" not in stderr and "cannot read" not in stderr, stderr
