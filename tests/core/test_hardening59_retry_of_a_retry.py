"""`--retry-failed` of a run that was itself a retry typed without `-i` (the inventory then came
from the first run's record, as `spec-debug run PB --retry-failed RUN` allows). The second
run's own command line has no -i, so retrying it (or pasting its report's retry command) took
the failed hosts' inventory names for host names: "gone" was looked up in DNS instead of
reached at the inventory's 127.0.0.1:1. Now the inventory is read through the chain of
--retry-failed runs, as the second run read it. Through the real CLI; the host that fails is a
refused connection."""

from __future__ import annotations

import subprocess

from tests.conftest import only_run, run_cli


def _runs(folder):
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink())


def test_a_retry_of_a_retry_keeps_the_inventory(tmp_path):
    playbook = tmp_path / "pb.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\nbox ansible_connection=local\ngone ansible_host=127.0.0.1 ansible_port=1\n",
                         encoding="utf-8")
    first_out, second_out, third_out = tmp_path / "r1", tmp_path / "r2", tmp_path / "r3"
    first = run_cli("run", str(playbook), "-i", str(inventory), "--out", str(first_out), "--batch")
    assert first.code == 3, first.stderr
    first_dir, _ = only_run(first_out)
    second = run_cli("run", str(playbook), "--out", str(second_out), "--batch", "--retry-failed", str(first_dir))
    assert second.code == 3, second.stderr
    second_dir, record = only_run(second_out)
    assert [h["name"] for h in record["hosts"]] == ["gone"]
    assert "refused" in record["hosts"][0]["error"], record["hosts"][0]
    third = run_cli("run", str(playbook), "--out", str(third_out), "--batch", "--retry-failed", str(second_dir))
    assert third.code == 3, third.stderr
    _, again = only_run(third_out)
    assert "refused" in again["hosts"][0]["error"] and "resolve" not in again["hosts"][0]["error"], again["hosts"][0]
    # the second run's report's retry command, pasted, reaches the same host
    report = (second_dir / "report.md").read_text(encoding="utf-8")
    retry = next(line for line in report.splitlines() if line.startswith("Re-run only the hosts that failed")).split("`")[1]
    pasted = subprocess.run(["bash", "-c", retry.replace(str(second_out), str(tmp_path / "r4"), 1)
                             if "--out" in retry else retry + f" --out {tmp_path / 'r4'}"],
                            capture_output=True, text=True, timeout=120)
    assert pasted.returncode == 3, pasted.stderr
    _, fourth = only_run(tmp_path / "r4")
    assert "refused" in fourth["hosts"][0]["error"], fourth["hosts"][0]


def test_a_retry_whose_earlier_run_is_gone_still_says_the_old_way(tmp_path):
    # The first run's folder removed: the chain cannot be read back, and the retry of the retry
    # goes on as before (the names as hosts), without a traceback.
    import shutil

    playbook = tmp_path / "pb.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\ngone ansible_host=127.0.0.1 ansible_port=1\n", encoding="utf-8")
    first = run_cli("run", str(playbook), "-i", str(inventory), "--out", str(tmp_path / "r1"), "--batch")
    assert first.code == 3, first.stderr
    first_dir, _ = only_run(tmp_path / "r1")
    assert run_cli("run", str(playbook), "--out", str(tmp_path / "r2"), "--batch", "--retry-failed", str(first_dir)).code == 3
    second_dir, _ = only_run(tmp_path / "r2")
    shutil.rmtree(tmp_path / "r1")
    third = run_cli("run", str(playbook), "--out", str(tmp_path / "r3"), "--batch", "--retry-failed", str(second_dir))
    assert third.code == 3 and "Traceback" not in third.stderr, third.stderr
