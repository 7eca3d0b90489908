"""Over SSH a fetch step's `timeout` bounds the whole fetch, as it bounds a `run` step.

On a hung NFS or FUSE mount the host's sftp-server waits in the kernel and never answers: a
fetch with `timeout: 3` waited the 120 s SFTP stall limit all the same, and a file that trickles
(a log written line by line, a FIFO) was copied for as long as it kept writing. Now the copy is
given up at the step's deadline: the step is recorded as timed out (SD002), the files copied
before are kept, the run goes on, and a later fetch on the same host copies again.

The hangs are real, and need no privileges: a FIFO that nobody writes blocks the host's open()
(as a dead mount blocks it); a FIFO fed a line every 0.2 s never ends, nor does /dev/zero over
SFTP (sftp-server cannot read a FIFO: it seeks).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterator

import pytest

from spec_debug.runner.fetch_limit import human_size
from tests.ssh.test_fleet_faults import assert_clean_cli, load_run
from tests.ssh.test_hardening13_sftp_fetch_limit import no_sftp_host  # noqa: F401 - a fixture
from tests.sshd_fixture import ClientSetup, SshServer

COPIES = ["sftp", "cat"]


@pytest.fixture
def hung_file(tmp_path: Path) -> Iterator[Path]:
    """A file whose open() on the host never returns, like one on a dead NFS server."""
    fifo = tmp_path / "host" / "hung.log"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    yield fifo
    _release(fifo)


@pytest.fixture
def trickling_file(tmp_path: Path) -> Iterator[Path]:
    """A file that never ends: a line every 0.2 s, so no copy ever waits long for a byte."""
    fifo = tmp_path / "host" / "server.log"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"while :; do echo 'Decode batch. #running-req: 1'; sleep 0.2; done > {fifo}"])
    yield fifo
    writer.kill()
    writer.wait()
    _release(fifo)


@pytest.fixture
def endless_file(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """A file that never ends, so the copy never waits for a byte: /dev/zero over SFTP (copied at
    well under the step's 1 GiB limit in 2 s), a FIFO fed line by line for `cat` (which moves
    /dev/zero's 1 GiB in seconds)."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and callspec.params.get("copies") == "cat":
        return request.getfixturevalue("trickling_file")
    (tmp_path / "host").mkdir()
    return Path("/dev/zero")


def _release(fifo: Path) -> None:
    """End a reader still blocked in open() on the host, so no process outlives the test."""
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass  # no reader left


def _wait_for_a_reader(run: subprocess.Popen[str], server: SshServer) -> None:
    """Wait until `server`'s SFTP server (the fixture's is sshd's internal-sftp) waits in open()
    on the FIFO (the kernel's wait_for_partner, fs/pipe.c): the run is connected, its copy under
    way. Only that server's processes: the other pytest worker's sshd may wait on a FIFO of its
    own, and a Ctrl-C sent on its wait came before this run's copy began."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and run.poll() is None:
        for pid in server.connection_pids():
            try:
                if Path(f"/proc/{pid}/wchan").read_text() == "wait_for_partner":
                    return
            except OSError:
                continue  # gone meanwhile
        time.sleep(0.2)
    raise AssertionError("the copy never reached the host's file")


def _host(copies: str, request: pytest.FixtureRequest) -> str:
    return "target" if copies == "sftp" else request.getfixturevalue("no_sftp_host")


def _playbook(tmp_path: Path, stuck: Path) -> Path:
    config = tmp_path / "host" / "config.json"
    config.write_text('{"architectures": ["LlamaForCausalLMEagle3"]}\n')
    playbook = tmp_path / "grab.yaml"
    playbook.write_text(
        f"""
name: grab
steps:
  - id: grab
    timeout: 2
    artifact_limit: 1G
    fetch: {{src: ["{config}", "{stuck}", /etc/hostname], dest: logs}}
  - id: after
    run: echo next step ran
  - id: again
    fetch: {{src: "{config}", dest: again}}
"""
    )
    return playbook


@pytest.mark.parametrize("copies", COPIES)
@pytest.mark.parametrize("stuck", ["hung_file", "endless_file"])
def test_a_fetch_stuck_on_the_host_ends_at_the_step_timeout_and_the_run_goes_on(
    cli: Callable[..., Any], client: ClientSetup, request: pytest.FixtureRequest, tmp_path: Path, copies: str, stuck: str
) -> None:
    host = _host(copies, request)
    stuck_file = request.getfixturevalue(stuck)
    out = tmp_path / "runs"
    started = time.monotonic()
    result = cli("run", str(_playbook(tmp_path, stuck_file)), "--host", host, "-F", str(client.config), "--batch", "--out", str(out), timeout=120)
    # 3-5 s here; a copy not given up waits the 120 s SFTP stall limit, or for ever.
    assert time.monotonic() - started < 50, "the fetch ran past its timeout of 2 s"
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    grab, after, again = record["steps"]
    assert grab["status"] == "timeout", grab
    assert grab["facts"]["fetch_timed_out"] is True and grab["facts"]["fetch_not_reached"] == ["/etc/hostname"]
    # What was copied before the timeout is kept, and so are the first bytes of the file cut
    # short (marked where they end); a copy that got no byte leaves nothing behind.
    given_up = grab["facts"]["fetch_given_up"]
    assert given_up["src"] == str(stuck_file), given_up
    cut = [given_up["artifact"]] if given_up["artifact"] else []
    if stuck == "hung_file" or copies == "sftp":  # a hung open() sends nothing; /dev/zero over SFTP sends at once
        assert bool(cut) == (stuck == "endless_file"), given_up
    said = f" (its first {human_size(given_up['bytes_kept'])} kept in {cut[0]}, marked where cut)" if cut else ""
    assert grab["message"] == f"timed out after 2 s while copying {stuck_file}{said}; not reached: /etc/hostname; the 1 file copied before is kept"
    assert grab["artifacts"] == [f"artifacts/{host}/logs/config.json", *cut]
    assert (run_dir / grab["artifacts"][0]).read_text() == (tmp_path / "host" / "config.json").read_text()
    assert sorted(p.name for p in (run_dir / "artifacts" / host / "logs").iterdir()) == sorted(["config.json", *(PurePosixPath(c).name for c in cut)])
    if cut:
        with open(run_dir / cut[0], "rb") as copy:
            copy.seek(given_up["bytes_kept"])
            assert copy.read().startswith(b"\n... [spec-debug: copy given up here: the fetch step's timeout of 2 s ran out;")
    assert [f["code"] for f in record["findings"] if f["step"] == "grab"] == ["SD002"]
    # The run went on, and the host still copies files (a fresh SFTP channel).
    assert after["status"] == "passed" and again["status"] == "passed", again
    assert record["hosts"][0]["status"] != "failed"


def test_a_pattern_and_a_copy_share_one_timeout(
    cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, endless_file: Path
) -> None:
    # Each pattern's listing had the whole timeout, and each copy 120 s more: now they share it.
    playbook = tmp_path / "grab.yaml"
    playbook.write_text(f"name: grab\nsteps:\n  - id: logs\n    timeout: 2\n    artifact_limit: 1G\n    fetch: {{src: ['{endless_file}', '{tmp_path}/host/*.json']}}\n")
    out = tmp_path / "runs"
    started = time.monotonic()
    result = cli("run", str(playbook), "--host", "target", "-F", str(client.config), "--batch", "--out", str(out), timeout=120)
    assert time.monotonic() - started < 50  # 3 s here; an endless copy not given up never ends
    assert_clean_cli(result)
    _, record = load_run(out)
    (logs,) = record["steps"]
    assert logs["status"] == "timeout"
    assert logs["facts"]["fetch_not_reached"] == [f"{tmp_path}/host/*.json"], logs["message"]


def test_ctrl_c_stops_a_fetch_with_a_long_timeout_at_once(client: ClientSetup, sshd: SshServer, tmp_path: Path, hung_file: Path) -> None:
    playbook = tmp_path / "grab.yaml"
    playbook.write_text(f"name: grab\nsteps:\n  - id: logs\n    timeout: 600\n    fetch: {{src: '{hung_file}'}}\n")
    out = tmp_path / "runs"
    proc = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "target", "-F", str(client.config), "--batch", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    _wait_for_a_reader(proc, sshd)
    proc.send_signal(signal.SIGINT)
    stopped = time.monotonic()
    _, stderr = proc.communicate(timeout=90)
    # Well under a second here; a Ctrl-C that waits for the copy waits the 120 s SFTP stall
    # limit or the step's 600 s timeout.
    assert time.monotonic() - stopped < 30, "Ctrl-C waited for the copy"
    assert proc.returncode == 3 and "Traceback" not in stderr, stderr[-2000:]
    _, record = load_run(out)
    (logs,) = record["steps"]
    assert record["status"] == "aborted" and logs["status"] == "error"
    # The stop said once (hardening77): was "...; <path>: target: copy of <path> stopped: the run was interrupted"
    assert logs["message"] == f"interrupted: Ctrl-C; copy of {hung_file} stopped", logs["message"]
