"""The report's "Re-run only the hosts that failed" command for a run given its secret in a
--var-file (the way to keep a token out of shell history). run.json masks the secret, and the
command as shown left the file out: pasted, it stopped with "the value of hf_token was masked
...; pass it again". The --var-file is kept now, as the inventory is: the retry reads the
secret where the first run did. Through the real CLI; the host that fails is a refused
connection."""

from __future__ import annotations

import shlex
import subprocess

from tests.conftest import only_run, run_cli


def test_the_retry_command_keeps_the_var_file(tmp_path):
    playbook = tmp_path / "pb.yaml"
    playbook.write_text('name: t\nvars:\n  hf_token: ""\nsteps:\n  - id: a\n    run: echo a\n', encoding="utf-8")
    secrets = tmp_path / "secrets.yaml"
    secrets.write_text("hf_token: hf_abcdefghijklmnopqrstuvwxyz\n", encoding="utf-8")
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\nbox ansible_connection=local\ngone ansible_host=127.0.0.1 ansible_port=1\n",
                         encoding="utf-8")
    runs = tmp_path / "runs"
    first = run_cli("run", str(playbook), "-i", str(inventory), "--var-file", str(secrets), "--out", str(runs), "--batch")
    assert first.code == 3, first.stdout + first.stderr
    run_dir, record = only_run(runs)
    assert "hf_abc" not in str(record["vars"])
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    retry = next(line for line in report.splitlines() if line.startswith("Re-run only the hosts that failed")).split("`")[1]
    words = shlex.split(retry)
    assert words[words.index("--var-file") + 1] == str(secrets)
    again = subprocess.run(["/bin/sh", "-c", retry], capture_output=True, text=True, timeout=120)
    assert again.returncode == 3, again.stderr  # as shown, it runs: the host fails again the same way
    assert "masked" not in again.stderr and "Traceback" not in again.stderr
