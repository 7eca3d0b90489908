"""The report's footer, "re-render with `spec-debug report DIR`", for a run kept under a folder
named with a byte that is no UTF-8 (`--out /data/r\\xe9sultats/runs`, the é one byte 0xE9 of a
Latin-1 machine). The footer quoted the folder with shlex.quote, and the byte came out as the
text `\\xe9` inside single quotes, which a shell keeps as four characters: pasted, the command
answered "no run record". Now the byte is written in ANSI-C quotes (`$'...\\xe9...'`), which give
it back (bash, zsh, ksh, POSIX.1-2024 sh). Through the real CLI on --host local."""

from __future__ import annotations

import os
import subprocess

from tests.conftest import run_cli


def test_the_rerender_command_of_a_latin1_folder_runs_as_shown(tmp_path):
    playbook = tmp_path / "pb.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    out = os.fsencode(tmp_path) + b"/r\xe9sultats/runs"
    first = run_cli("run", str(playbook), "--host", "local", "--out", os.fsdecode(out))
    assert first.code == 0, first.stderr
    (run_dir,) = [out + b"/" + name for name in os.listdir(out) if os.path.isdir(out + b"/" + name)]
    with open(run_dir + b"/report.md", encoding="utf-8") as file:
        footer = next(line for line in file if "re-render with" in line)
    command = footer.split("`")[1]
    assert "$'" in command, command
    again = subprocess.run(["bash", "-c", f"cd {tmp_path} && python3 -m {command.replace('spec-debug ', 'spec_debug ', 1)}"],
                           capture_output=True, timeout=120, env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert again.returncode == 0, again.stderr.decode("utf-8", "replace")
    assert b"# " in again.stdout and b"no run record" not in again.stderr
