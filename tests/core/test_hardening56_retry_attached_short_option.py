"""`--retry-failed RUN_DIR` where that run was given its inventory or ssh_config with the value
attached to the short option (`-ihosts.ini`, `-Fnone`), as click and ssh(1) take it. The retry
looked for `-i FILE` and `--inventory[=]FILE` only, ran without the inventory, and failed its
hosts by name ("cannot resolve host name 'box'"). Through the real CLI, the host an inventory
host with `ansible_connection=local`.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli


def test_retry_reuses_an_inventory_given_as_i_attached(tmp_path):
    flag = tmp_path / "fixed"
    playbook = tmp_path / "pb.yaml"
    playbook.write_text(f"name: t\nsteps:\n  - id: fixed\n    run: test -e {flag}\n", encoding="utf-8")
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\nbox ansible_connection=local\n", encoding="utf-8")
    runs = tmp_path / "runs"
    first = run_cli("run", str(playbook), f"-i{inventory}", "-Fnone", "--out", str(runs))
    assert first.code == 1, first.stdout + first.stderr
    flag.write_text("")
    again = tmp_path / "again"
    retry = run_cli("run", str(playbook), "--retry-failed", str(only_run(runs)[0]), "--out", str(again))
    assert "cannot resolve" not in retry.stdout + retry.stderr
    assert retry.code == 0, retry.stdout + retry.stderr
    record = only_run(again)[1]
    hosts = record["hosts"] if isinstance(record["hosts"], list) else list(record["hosts"].values())
    assert [(h["name"], h["status"]) for h in hosts] == [("box", "passed")]
