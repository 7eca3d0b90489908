"""The report's "Re-run only the hosts that failed" command left out `--artifact-limit` and
`--capture-limit`: a run given `--artifact-limit 0` (keep every byte of a log) was retried at
the 256M default, and the log the retry came back for was cut; one given a capture limit kept
another share of each output in run.json. They are kept now, as the options that reach the
hosts are. Through the real CLI; the host that fails is a refused connection."""

from __future__ import annotations

import shlex
import subprocess

from tests.conftest import only_run, run_cli


def test_the_retry_command_keeps_the_output_limits(tmp_path):
    playbook = tmp_path / "pb.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\nbox ansible_connection=local\ngone ansible_host=127.0.0.1 ansible_port=1\n",
                         encoding="utf-8")
    runs = tmp_path / "runs"
    first = run_cli("run", str(playbook), "-i", str(inventory), "--artifact-limit", "0", "--capture-limit=4096",
                    "--out", str(runs), "--batch")
    assert first.code == 3, first.stdout + first.stderr
    run_dir, _ = only_run(runs)
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    line = next(line for line in report.splitlines() if line.startswith("Re-run only the hosts that failed"))
    retry = line.split("`")[1]
    words = shlex.split(retry)
    assert words[words.index("--artifact-limit") + 1] == "0"
    assert words[words.index("--capture-limit") + 1] == "4096"
    # As shown, it runs: only the host that failed, and it fails again the same way.
    again = subprocess.run(["/bin/sh", "-c", retry], capture_output=True, text=True, timeout=120)
    assert again.returncode == 3, again.stderr
    assert "Traceback" not in again.stderr
