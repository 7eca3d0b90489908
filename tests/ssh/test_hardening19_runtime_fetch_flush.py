"""Over SSH where sshd has no SFTP (files then go over `sh -c ... cat`), a fetch given up at its
step's timeout keeps every byte the host's file gave before it stalled, and a file that never
ends is still cut at the step's limit.

The host's copy ran `head -c LIMIT+1`, which holds its last bytes in a stdio buffer until the
next read: a log that stalled mid-stream (a server hung in NCCL) lost its last lines, the
evidence, at the deadline. It now runs `cat`, and the controller stops reading one byte past
the limit itself, which must still end an endless file (/dev/zero) at the limit.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from tests.core.test_hardening19_runner_fetch_flush import LAST_WORDS
from tests.ssh.test_fleet_faults import assert_clean_cli, load_run
from tests.ssh.test_hardening13_sftp_fetch_limit import no_sftp_host  # noqa: F401 - a fixture
from tests.sshd_fixture import ClientSetup


@pytest.fixture
def stalled_log(tmp_path: Path) -> Iterator[Path]:
    """A log on the host whose writer printed LAST_WORDS and hangs, keeping it open."""
    fifo = tmp_path / "host" / "server.log"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    end = os.open(fifo, os.O_RDWR)
    writer = subprocess.Popen(["sh", "-c", 'printf %s "$1"; exec sleep 60', "sh", LAST_WORDS], stdout=end)
    os.close(end)
    yield fifo
    writer.kill()
    writer.wait()


def test_a_fetch_over_cat_given_up_at_its_timeout_keeps_the_last_lines(
    cli: Callable[..., Any], client: ClientSetup, no_sftp_host: str, tmp_path: Path, stalled_log: Path
) -> None:
    playbook = tmp_path / "grab.yaml"
    playbook.write_text(
        f"name: grab\nsteps:\n  - id: grab\n    timeout: 2\n    fetch: {{src: '{stalled_log}', dest: logs}}\n"
        "  - id: after\n    run: echo next step ran\n"
    )
    out = tmp_path / "runs"
    started = time.monotonic()
    result = cli("run", str(playbook), "--host", no_sftp_host, "-F", str(client.config), "--batch", "--out", str(out), timeout=120)
    assert time.monotonic() - started < 50  # 3 s here; a copy not given up waits for its writer's sleep 60
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    grab, after = record["steps"]
    assert grab["status"] == "timeout" and after["status"] == "passed", grab["message"]
    assert grab["facts"]["fetch_given_up"]["bytes_kept"] == len(LAST_WORDS.encode()), grab["message"]
    kept = (run_dir / "artifacts" / no_sftp_host / "logs" / "server.log").read_text()
    assert kept.startswith(LAST_WORDS + "\n... [spec-debug: copy given up here: the fetch step's timeout of 2 s ran out;"), kept[:600]


def test_an_endless_file_over_cat_is_cut_at_the_limit(
    cli: Callable[..., Any], client: ClientSetup, no_sftp_host: str, tmp_path: Path
) -> None:
    # /dev/zero has no size to check first (not a regular file): only the reader's limit ends it.
    playbook = tmp_path / "grab.yaml"
    playbook.write_text("name: grab\nsteps:\n  - id: grab\n    artifact_limit: 1M\n    fetch: {src: /dev/zero, dest: dev}\n"
                        "  - id: after\n    run: echo next step ran\n")
    out = tmp_path / "runs"
    started = time.monotonic()
    result = cli("run", str(playbook), "--host", no_sftp_host, "-F", str(client.config), "--batch", "--out", str(out), timeout=120)
    assert time.monotonic() - started < 50  # 1 s here; /dev/zero not cut at the limit never ends
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    grab, after = record["steps"]
    assert grab["facts"]["fetch_cut"] == [{"src": "/dev/zero", "artifact": f"artifacts/{no_sftp_host}/dev/zero", "bytes_kept": 1 << 20}]
    assert (run_dir / "artifacts" / no_sftp_host / "dev" / "zero").stat().st_size == 1 << 20
    assert after["status"] == "passed"
