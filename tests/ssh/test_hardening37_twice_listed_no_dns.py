"""The check for one machine named twice (two names whose ssh config HostName is the same)
resolved every name through the ssh config before the run started, CanonicalizeHostname
included: against a DNS server that does not answer, `spec-debug run` sat for minutes before
writing its record, where a Ctrl-C was not yet handled as a run's stop. The check now reads
the config without canonicalizing (the connections canonicalize as configured), and a run
of one host does not read it at all."""

from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path

from tests.sshd_fixture import ClientSetup, write_ssh_config
from tests.ssh.h6_helpers import TINY, run_with_resolv_conf
from tests.ssh.test_hardening6_faults import silent_dns  # noqa: F401 - the fixture


def test_two_hosts_with_canonicalize_hostname_start_the_run_without_a_lookup(
    client: ClientSetup, tmp_path: Path, silent_dns: Path  # noqa: F811
) -> None:
    client.hosts["*"] = {"CanonicalizeHostname": "yes", "CanonicalDomains": "spec-debug-h37.test",
                         "IdentityFile": str(client.key.path)}
    write_ssh_config(client.config, client.hosts)
    playbook = tmp_path / "tiny.yaml"
    playbook.write_text(TINY)
    out = tmp_path / "runs"
    inner = [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "gpu01", "--host", "gpu02",
             "-F", str(client.config), "--batch", "--out", str(out)]
    process = run_with_resolv_conf(silent_dns, inner)
    try:
        # the record appears at once (was: after the names' canonicalizing lookups timed out)
        deadline = time.monotonic() + 20
        while not list(out.glob("*/run.json")):
            assert time.monotonic() < deadline and process.poll() is None, "the run did not start"
            time.sleep(0.1)
        time.sleep(1.0)  # the connections now wait on the silent DNS server
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    stderr = process.stderr.read().decode() if process.stderr else ""
    assert code == 3 and "Traceback" not in stderr, stderr
    [record] = [json.loads(path.read_text()) for path in out.glob("*/run.json")]
    assert sorted(host["name"] for host in record["hosts"]) == ["gpu01", "gpu02"]
