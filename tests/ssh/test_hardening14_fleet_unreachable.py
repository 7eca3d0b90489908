"""A fleet of 8 where one host is down: 7 inventory hosts on a real sshd, `lab08` on a closed
port. The report makes the unreachable host obvious at its top (the verdict names it, with its
cause), and `--retry-failed RUN_DIR` runs only it again."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: fleet_look
description: one shell step per host
steps:
  - id: hello
    title: Say hello
    why: proves the host runs commands
    run: echo "hello from {{ host }}"
"""

UP = [f"lab0{i}" for i in range(1, 8)]


@pytest.fixture
def fleet(tmp_path: Path, client: ClientSetup, sshd: SshServer, closed_port: Callable[[], int]) -> Path:
    inventory = tmp_path / "hosts.ini"
    lines = ["[gpus]"]
    lines += [f"{name} ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}" for name in UP]
    lines.append(f"lab08 ansible_host=127.0.0.1 ansible_port={closed_port()} ansible_ssh_private_key_file={client.key.path}")
    inventory.write_text("\n".join(lines) + "\n")
    (tmp_path / "fleet.yaml").write_text(PLAYBOOK)
    return inventory


def run_cli(tmp_path: Path, out: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], Path, dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(tmp_path / "fleet.yaml"), *args, "--batch", "--forks", "8", "--out", str(out)],
        capture_output=True, text=True, timeout=180, env={**os.environ, "COLUMNS": "300"},
    )
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    return done, run_dir, json.loads((run_dir / "run.json").read_text())


def test_the_unreachable_host_of_eight_heads_the_report_and_is_the_only_one_retried(tmp_path: Path, fleet: Path) -> None:
    done, run_dir, record = run_cli(tmp_path, tmp_path / "first", "-i", str(fleet))
    assert done.returncode == 3, done.stderr
    status = {h["name"]: h["status"] for h in record["hosts"]}
    assert status == {**{name: "passed" for name in UP}, "lab08": "error"}
    cause = next(h["error"] for h in record["hosts"] if h["name"] == "lab08")
    assert cause.startswith("lab08 at 127.0.0.1: connection refused")

    # Markdown: the top of the report (before the first section) names lab08, its cause, and
    # the command that re-runs only it; the seven hosts that passed are not in it.
    markdown = (run_dir / "report.md").read_text()
    head = markdown.split("\n## ", 1)[0]
    assert re.search(r"> \*\*Verdict:\*\* 1 host\(s\) could not be checked: lab08\b", head), head
    assert f"- `lab08`: {cause}" in head, head
    before_table = head.split("| run |", 1)[0]
    assert not [name for name in UP if name in before_table]
    retry = re.search(r"Re-run only the hosts that failed: `([^`]+)`", head).group(1)
    # run as `python -m spec_debug`: the retry runs that way too (test_hardening57_retry_program.py)
    assert " -m spec_debug run " in retry and f"--retry-failed {run_dir}" in retry, retry
    # HTML: a box right under the verdict banner, before the findings, says the same.
    page = (run_dir / "report.html").read_text()
    top = page.split("<main>", 1)[1].split("<h2>Findings</h2>", 1)[0]
    assert "lab08" in top and "connection refused" in top, top
    assert "lab01" not in top.split('<p class="meta">Run', 1)[0]

    # The command the report gives, run as it is: only lab08 runs again (still down).
    argv = shlex.split(retry)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=180,
                          env={**os.environ, "COLUMNS": "300"})
    assert done.returncode == 3, done.stderr
    (retried_dir,) = [p for p in run_dir.parent.iterdir() if p.is_dir() and p != run_dir]
    retried = json.loads((retried_dir / "run.json").read_text())
    assert [h["name"] for h in retried["hosts"]] == ["lab08"]
    assert retried["steps"] == []
    assert retried["hosts"][0]["error"].startswith("lab08 at 127.0.0.1: connection refused")


def test_a_fleet_of_unreachable_hosts_lists_ten_at_the_top_and_counts_the_rest(tmp_path: Path, closed_port: Callable[[], int]) -> None:
    (tmp_path / "fleet.yaml").write_text(PLAYBOOK)
    hosts = [arg for port in sorted(closed_port() for _ in range(12)) for arg in ("--host", f"127.0.0.1:{port}")]
    done, run_dir, record = run_cli(tmp_path, tmp_path / "out", *hosts)
    assert done.returncode == 3, done.stderr
    assert len(record["hosts"]) == 12 and all(h["status"] == "error" for h in record["hosts"])
    head = (run_dir / "report.md").read_text().split("\n## ", 1)[0]
    assert "**Could not be checked (12):**" in head
    assert len(re.findall(r"^- `127\.0\.0\.1:\d+`: 127\.0\.0\.1: connection refused", head, re.M)) == 10
    assert "- and 2 more (see the fleet summary)" in head


def test_the_github_step_summary_names_the_unreachable_host_and_its_cause(tmp_path: Path, closed_port: Callable[[], int]) -> None:
    (tmp_path / "fleet.yaml").write_text(PLAYBOOK)
    summary = tmp_path / "summary.md"
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(f"lab08 ansible_host=127.0.0.1 ansible_port={closed_port()}\n")
    done = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(tmp_path / "fleet.yaml"), "-i", str(inventory), "--batch", "--out", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=120, env={**os.environ, "GITHUB_STEP_SUMMARY": str(summary)},
    )
    assert done.returncode == 3, done.stderr
    assert re.search(r"^- `lab08`: lab08 at 127\.0\.0\.1: connection refused by 127\.0\.0\.1:\d+ \(hint: is sshd running", summary.read_text(), re.M), summary.read_text()
