"""The report's "Re-run only the hosts that failed" command named a shipped playbook by its
installed path (`.../site-packages/spec_debug/playbooks/host_smoke.yaml`, a checkout's
folder), which a teammate's machine or a new virtualenv does not have; the run-folder hint
already named it `host_smoke`, which works anywhere. Now the retry command does too, and a
playbook of the user's own keeps its path. Through the real CLI; the host that fails is a
refused connection on loopback."""

from __future__ import annotations

import shlex
import subprocess

from tests.conftest import only_run, run_cli


def _retry_words(tmp_path, playbook: str) -> tuple[list[str], str]:
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\nbox ansible_connection=local\ngone ansible_host=127.0.0.1 ansible_port=1\n",
                         encoding="utf-8")
    runs = tmp_path / "runs"
    first = run_cli("run", playbook, "-i", str(inventory), "--out", str(runs), "--batch")
    assert first.code == 3, first.stdout + first.stderr
    run_dir, _ = only_run(runs)
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    line = next(line for line in report.splitlines() if line.startswith("Re-run only the hosts that failed"))
    retry = line.split("`")[1]
    return shlex.split(retry), retry


def test_a_shipped_playbook_is_retried_by_its_name(tmp_path):
    words, retry = _retry_words(tmp_path, "host_smoke")
    assert words[words.index("run") + 1] == "host_smoke"
    assert "spec_debug/playbooks" not in retry
    # As shown, it runs from another folder: only the host that failed, failing again the same way.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    again = subprocess.run(["/bin/sh", "-c", retry], capture_output=True, text=True, timeout=120, cwd=elsewhere)
    assert again.returncode == 3, again.stderr
    assert "Traceback" not in again.stderr


def test_a_playbook_of_ones_own_keeps_its_path(tmp_path):
    playbook = tmp_path / "host_smoke.yaml"  # the same name as a shipped one, but the user's file
    playbook.write_text("name: host_smoke\nsteps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    words, _ = _retry_words(tmp_path, str(playbook))
    assert words[words.index("run") + 1] == str(playbook)
