"""The report's "Re-run only the hosts that failed" command for a run whose playbook or inventory
lies in a folder named with a byte that is no UTF-8 (a Latin-1 machine's `r\\xe9sultats`, the é
one byte 0xE9). run.json records the byte as the text `\\xe9` (record.shown_surrogate), and the
command showed that text inside single quotes, where a shell keeps it as a backslash and three
letters: pasted, it stopped with "playbook not found". Now such a word is written in ANSI-C
quotes (`$'r\\xe9sultats/...'`, bash, zsh, ksh, POSIX.1-2024 sh), which give the byte back.
Through the real CLI; the host that fails is a refused connection."""

from __future__ import annotations

import os
import subprocess

from tests.conftest import only_run, run_cli


def _retry_line(run_dir) -> str:
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    return next(line for line in report.splitlines() if line.startswith("Re-run only the hosts that failed")).split("`")[1]


def test_the_retry_command_gives_a_latin1_path_back_as_its_byte(tmp_path):
    folder = os.fsencode(tmp_path) + b"/r\xe9sultats"
    os.mkdir(folder)
    playbook, inventory = folder + b"/pb.yaml", folder + b"/hosts.ini"
    with open(playbook, "w", encoding="utf-8") as file:
        file.write("name: t\nsteps:\n  - id: a\n    run: echo a\n")
    with open(inventory, "w", encoding="utf-8") as file:
        file.write("[gpus]\nbox ansible_connection=local\ngone ansible_host=127.0.0.1 ansible_port=1\n")
    runs = tmp_path / "runs"
    first = run_cli("run", os.fsdecode(playbook), "-i", os.fsdecode(inventory), "--out", str(runs), "--batch")
    assert first.code == 3, first.stdout + first.stderr
    run_dir, _ = only_run(runs)
    retry = _retry_line(run_dir)
    assert "$'" in retry, retry
    again = subprocess.run(["bash", "-c", retry], capture_output=True, timeout=120)
    stderr = again.stderr.decode("utf-8", "replace")
    assert again.returncode == 3, stderr  # as shown, it runs: the host fails again the same way
    assert "not found" not in stderr and "Traceback" not in stderr


def test_a_path_with_a_written_backslash_stays_as_written(tmp_path):
    # Only a word with a shown byte takes ANSI-C quotes; a folder named `a\x41` (its own backslash)
    # is quoted as before and still found.
    folder = tmp_path / "a\\x41 b"
    folder.mkdir()
    playbook, inventory = folder / "pb.yaml", folder / "hosts.ini"
    playbook.write_text("name: t\nsteps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    inventory.write_text("[gpus]\ngone ansible_host=127.0.0.1 ansible_port=1\n", encoding="utf-8")
    runs = tmp_path / "runs"
    first = run_cli("run", str(playbook), "-i", str(inventory), "--out", str(runs), "--batch")
    assert first.code == 3, first.stdout + first.stderr
    run_dir, _ = only_run(runs)
    again = subprocess.run(["bash", "-c", _retry_line(run_dir)], capture_output=True, text=True, timeout=120)
    assert again.returncode == 3 and "not found" not in again.stderr, again.stderr
