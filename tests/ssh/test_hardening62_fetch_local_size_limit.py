"""A fetch whose copy passes this machine's file size limit (`ulimit -f` in the shell that
runs spec-debug: a login node's limits.conf, a CI runner's service) is this machine's error.

Python ignores SIGXFSZ, so the write of the copy fails with EFBIG. Over SSH that OSError met
the transport's handling of the host's refusals, and the step said "[Errno 27]
gpu:/var/log/sglang/server.log: File too large": the host's file, where the host had no part
in it. It now says the copy could not be written on this machine, where, and the limit.

The host is real (the shared sshd, and one without SFTP, whose copies go over `cat`); the CLI
runs under a real RLIMIT_FSIZE.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ssh.test_fleet_faults import load_run
from tests.ssh.test_hardening13_sftp_fetch_limit import no_sftp_host  # noqa: F401 - a fixture
from tests.sshd_fixture import ClientSetup

_LIMIT = 200 * 1024


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (_LIMIT, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


@pytest.mark.parametrize("copies", ["sftp", "cat"])
def test_a_copy_past_this_machines_file_size_limit_is_not_the_hosts_error(
    client: ClientSetup, request: pytest.FixtureRequest, tmp_path: Path, copies: str
) -> None:
    host = "target" if copies == "sftp" else request.getfixturevalue("no_sftp_host")
    log = tmp_path / "host" / "server.log"
    log.parent.mkdir()
    log.write_bytes(b"request served\n" * (2 * _LIMIT // 15))
    playbook = tmp_path / "grab.yaml"
    playbook.write_text("name: grab\nsteps:\n  - id: grab\n    fetch:\n      src: " + json.dumps(str(log)) + "\n"
                        "  - id: after\n    run: echo after\n")
    out = tmp_path / "runs"
    done = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", host, "-F", str(client.config),
                           "--batch", "--out", str(out)], capture_output=True, text=True, timeout=120, preexec_fn=_limited,
                          env={**os.environ, "COLUMNS": "200"})
    assert "Traceback" not in done.stderr, done.stderr
    run_dir, record = load_run(out)
    grab = next(s for s in record["steps"] if s["id"] == "grab")
    assert grab["status"] == "error", grab
    copy = run_dir.resolve() / "artifacts" / host / "server.log"
    assert grab["message"] == (f"{log}: cannot write its copy on this machine ({copy}): File too large (the file size limit of "
                               f"the shell that started spec-debug, ulimit -f: {_LIMIT} bytes; raise it there, or fetch less "
                               "with a narrower src)"), grab["message"]
    assert f"{host}:" not in grab["message"]
    assert not list(copy.parent.glob("server.log*")), list(copy.parent.iterdir())  # no part left behind
    assert next(s for s in record["steps"] if s["id"] == "after")["status"] == "passed"


def test_a_local_fetch_past_the_limit_says_the_same(tmp_path: Path) -> None:
    # --host local copies through a child `cat` (local.py): the write failed as a bare
    # "[Errno 27] File too large".
    log = tmp_path / "server.log"
    log.write_bytes(b"request served\n" * (2 * _LIMIT // 15))
    playbook = tmp_path / "grab.yaml"
    playbook.write_text("name: grab\nsteps:\n  - id: grab\n    fetch:\n      src: " + json.dumps(str(log)) + "\n")
    out = tmp_path / "runs"
    done = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)],
                          capture_output=True, text=True, timeout=120, preexec_fn=_limited, env={**os.environ, "COLUMNS": "200"})
    assert "Traceback" not in done.stderr, done.stderr
    run_dir, record = load_run(out)
    (grab,) = record["steps"]
    copy = run_dir.resolve() / "artifacts" / "local" / "server.log"
    assert grab["status"] == "error" and grab["message"].startswith(
        f"{log}: cannot write its copy on this machine ({copy}): File too large (the file size limit of the shell that "
        f"started spec-debug, ulimit -f: {_LIMIT} bytes;"), grab["message"]
    assert not list(copy.parent.glob("server.log*"))
