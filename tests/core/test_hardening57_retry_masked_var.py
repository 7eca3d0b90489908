"""The report's "Re-run only the hosts that failed" command for a run given a secret by --var.

run.json masks the secret, and --retry-failed asks for it again; the command as shown left it
out, so pasted it stopped with "the value of hf_token was masked ...; pass it again". It now
reads the var from the environment variable of its name (`--var hf_token="${HF_TOKEN:?...}"`):
with HF_TOKEN set it runs as shown; unset, the shell names what to set. Through the real CLI;
the host that fails is a refused connection."""

from __future__ import annotations

import os
import subprocess

from tests.conftest import only_run, run_cli


def test_the_retry_command_reads_a_masked_var_from_the_environment(tmp_path):
    playbook = tmp_path / "pb.yaml"
    playbook.write_text('name: t\nvars:\n  hf_token: ""\nsteps:\n  - id: a\n    run: echo a\n', encoding="utf-8")
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\nbox ansible_connection=local\ngone ansible_host=127.0.0.1 ansible_port=1\n",
                         encoding="utf-8")
    runs = tmp_path / "runs"
    first = run_cli("run", str(playbook), "-i", str(inventory), "--var", "hf_token=hf_abcdefghijklmnopqrstuvwxyz",
                    "--out", str(runs), "--batch")
    assert first.code == 3, first.stdout + first.stderr
    run_dir, record = only_run(runs)
    assert "hf_abc" not in str(record["vars"])
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    line = next(line for line in report.splitlines() if line.startswith("Re-run only the hosts that failed"))
    retry = line.split("`")[1]
    assert "hf_abc" not in retry
    env = {k: v for k, v in os.environ.items() if k != "HF_TOKEN"}
    unset = subprocess.run(["/bin/sh", "-c", retry], capture_output=True, text=True, timeout=120, env=env)
    assert unset.returncode != 0 and "HF_TOKEN" in unset.stderr and "masked" not in unset.stderr, unset.stderr
    # As shown, with the secret in its environment variable, it runs: the host fails again the same way.
    given = subprocess.run(["/bin/sh", "-c", retry], capture_output=True, text=True, timeout=120,
                           env={**env, "HF_TOKEN": "hf_abcdefghijklmnopqrstuvwxyz"})
    assert given.returncode == 3, given.stderr
    assert "masked" not in given.stderr and "Traceback" not in given.stderr
