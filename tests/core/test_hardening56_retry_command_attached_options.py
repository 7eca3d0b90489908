"""The report's "Re-run only the hosts that failed" command of a run given `-oDIR`, `-iFILE`
or `-Fnone` (the value attached to the short option, as click takes it). They were dropped: the
command named `--retry-failed runs/<id>`, a folder that does not exist where the run was kept
in DIR, and left out the inventory. Through the real CLI, the host an inventory host with
`ansible_connection=local`.
"""

from __future__ import annotations

import shlex

from tests.conftest import only_run, run_cli


def test_retry_command_keeps_attached_short_options(tmp_path):
    playbook = tmp_path / "pb.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    inventory = tmp_path / "hosts.ini"
    # One host that runs, one whose connection is refused: the second is "could not be checked".
    inventory.write_text("[gpus]\nbox ansible_connection=local\ngone ansible_host=127.0.0.1 ansible_port=1\n",
                         encoding="utf-8")
    runs = tmp_path / "kept"
    first = run_cli("run", str(playbook), f"-i{inventory}", "-Fnone", f"-o{runs}", "--batch")
    assert first.code == 3, first.stdout + first.stderr
    run_dir, _ = only_run(runs)
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    line = next(line for line in report.splitlines() if line.startswith("Re-run only the hosts that failed"))
    words = shlex.split(line.split("`")[1])
    assert words[words.index("--retry-failed") + 1] == str(run_dir)
    assert words[words.index("-i") + 1] == str(inventory)
    assert words[words.index("-F") + 1] == "none"
