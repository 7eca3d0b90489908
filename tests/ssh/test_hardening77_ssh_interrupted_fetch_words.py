"""Over SSH, a fetch step the run's stop cut in the middle of a copy put the host's name
mid-sentence and said the path twice, then said each file after it was "not started" in the
same doubled way:

    interrupted: Ctrl-C; /data/core.bin: target: copy of /data/core.bin stopped: the run was
    interrupted; /data/dmesg.txt: target: file copy not started: the run was interrupted

It now says it as a local fetch does (tests/core/test_hardening77_interrupted_fetch_words.py),
the host being the step's own (its record's `host`):

    interrupted: Ctrl-C; copy of /data/core.bin stopped; not reached: /data/dmesg.txt

Both ways a host copies files: SFTP, and `cat` over a shell channel where it has no SFTP."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.playbook import load_playbook
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.ssh import SSHTransport
from spec_debug.store import RunStore
from tests.core.test_hardening77_interrupted_fetch_words import StopOnceBytesCame
from tests.ssh.test_hardening13_sftp_fetch_limit import no_sftp_host  # noqa: F401 - a fixture
from tests.sshd_fixture import ClientSetup


@pytest.mark.parametrize("copies", ["sftp", "cat"])
def test_a_fetch_stopped_mid_copy_over_ssh_names_the_file_once(
    client: ClientSetup, request: pytest.FixtureRequest, tmp_path: Path, copies: str
) -> None:
    host = "target" if copies == "sftp" else request.getfixturevalue("no_sftp_host")
    core = tmp_path / "core.bin"
    with open(core, "wb") as handle:
        handle.truncate(8 * 1024**3)  # sparse: no disk used, far longer to copy than the test waits
    dmesg = tmp_path / "dmesg.txt"
    dmesg.write_text("NVRM: Xid 79\n")
    (tmp_path / "p.yaml").write_text(f"name: p\nsteps:\n  - id: grab\n    fetch:\n      src: [{core}, {dmesg}]\n")
    reporter = StopOnceBytesCame()
    target = HostTarget(name=host, connect=lambda: SSHTransport.connect(host, client.options()), transport="ssh")
    run = Run(load_playbook(tmp_path / "p.yaml"), [target], RunStore.create(tmp_path / "runs", "p"), {},
              RunOptions(reporter=reporter, artifact_limit=16 * 1024**3))
    reporter.run = run
    record = run.execute()
    (grab,) = record.steps
    assert record.status == "aborted" and record.findings == []
    # was "...; {core}: target: copy of {core} stopped: the run was interrupted; {dmesg}: target: file copy not started: ..."
    assert (grab.host, grab.status, grab.message) == (host, "error", f"interrupted: Ctrl-C; copy of {core} stopped; not reached: {dmesg}")
    assert grab.artifacts == []
    assert grab.facts["fetch_not_reached"] == [str(dmesg)]
