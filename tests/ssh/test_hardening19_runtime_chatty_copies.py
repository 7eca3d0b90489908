"""Files fetched from a host without SFTP are the host's bytes, even when its shell greets; and
where the greeting breaks SFTP itself, copies go that way too.

Hardened images drop sshd's `Subsystem sftp` line, and files then go over `sh -c ... cat` on a
command channel (as `scp -O` copies them). sshd runs that command through the login shell, which
reads its startup file first (Debian's and Fedora's bash read ~/.bashrc for ssh commands), and
what that prints on stdout (a cluster greeting, `conda init` chatter) came first in the fetched
file: the draft's config.json began with "Welcome to the GPU cluster!" and no longer parsed.

Debian's and Ubuntu's default sshd_config starts the external sftp-server (`Subsystem sftp
/usr/lib/openssh/sftp-server`), which sshd runs through the login shell too: the greeting lands
in the SFTP stream ("Garbage packet received"). Every probe step (the bundle upload) and every
fetch on such a host failed, with a hint to quiet ~/.bashrc; copies over `cat` skip the greeting,
so they are used there now.

The rc file here is BASH_ENV (tests/ssh/test_hardening9_login_rc.py, RcServer), which bash reads
for every non-interactive shell, as Debian's bash reads ~/.bashrc.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run, sftp_server_path
from tests.ssh.test_hardening9_login_rc import RcServer
from tests.sshd_fixture import ClientKey, ClientSetup

HOST_HOME = "host-home"
GREETING = "echo 'Welcome to the GPU cluster! 42 jobs queued'\necho '(base) conda: /opt/conda/bin/python'\n"


@pytest.fixture(params=["no-sftp", "debian-sftp-server"])
def chatty_sftpless_host(client: ClientSetup, client_key: ClientKey, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A host whose login shell greets on stdout, with no `Subsystem sftp` line or with the
    external sftp-server that Debian's sshd_config names (started through that shell)."""
    rc_file = tmp_path / "rc"
    # The sessions start in an empty home of their own (HOST_HOME): in the account's real home,
    # which every other SSH test's run uploads to, a copy of the probe bundle is found and no
    # upload went through the greeting at all whenever another test had run first.
    home = tmp_path / HOST_HOME
    home.mkdir()
    rc_file.write_text(GREETING + f"cd {home} && export HOME={home}\n")
    subsystem = "" if request.param == "no-sftp" else sftp_server_path()
    server = RcServer(tmp_path / "sshd-chatty", [client_key], subsystem=subsystem, rc_file=str(rc_file)).start()
    try:
        client.trust(server)
        client.alias("gpu05", server)
        yield "gpu05"
    finally:
        server.stop()


def test_a_fetched_file_holds_the_hosts_bytes_and_not_the_greeting(
    cli: Callable[..., Any], client: ClientSetup, chatty_sftpless_host: str, tmp_path: Path
) -> None:
    draft = tmp_path / "draft"
    draft.mkdir()
    config = {"architectures": ["LlamaForCausalLMEagle3"], "draft_vocab_size": 32000, "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 23, 44]}}
    (draft / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    (draft / "d2t.bin").write_bytes(os.urandom(300_000))  # crosses the channel's chunks
    playbook = tmp_path / "grab.yaml"
    playbook.write_text(f"name: grab\nsteps:\n  - id: draft\n    fetch: {{src: '{draft}/*', dest: draft}}\n"
                        "  - id: host\n    probe: host_info\n"  # uploads the probe bundle
                        "  - id: shell\n    run: echo still fine\n")
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", chatty_sftpless_host, "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    steps = by_id(record, chatty_sftpless_host)
    assert steps["draft"]["status"] == "passed", steps["draft"]["message"]
    copies = run_dir / "artifacts" / chatty_sftpless_host / "draft"
    assert json.loads((copies / "config.json").read_text()) == config
    assert (copies / "d2t.bin").read_bytes() == (draft / "d2t.bin").read_bytes()
    assert steps["host"]["status"] == "passed", steps["host"]["message"]
    [bundle] = (tmp_path / HOST_HOME / ".cache" / "spec-debug").glob("bundle-*.pyz")  # uploaded by this run
    assert steps["host"]["command"].split()[1] == f".cache/spec-debug/{bundle.name}", steps["host"]["command"]
    assert steps["shell"]["stdout"] == "still fine\n" and result.code == 0
