"""An ssh config with a syntax error is refused as ssh(1) refuses it: anywhere in the file,
naming the file and line.

ssh(1) splits every line's value and checks flags, choices and times as it reads them, in any
block (openssh-portable: readconf.c, process_config_line_depth: "invalid quotes"; parse_flag,
parse_multistate, parse_time). A `ProxyCommand "/opt/proxy %h` with its quote left open was run
as written; an open quote or `BatchMode maybe` under another host's block passed where `ssh`
refuses the file; and `StrictHostKeyChecking maybe` under the host itself stopped the run
without naming the file or line.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from spec_debug.runner.ssh_connect import connect
from tests.sshd_fixture import ClientSetup, SshServer


def _ssh_refuses(config: Path, alias: str) -> str:
    """What ssh(1) says of the same file (`ssh -G` reads it whole)."""
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    done = subprocess.run(["ssh", "-G", "-F", str(config), alias], capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL, check=False)
    assert done.returncode != 0, done.stdout
    return done.stderr


def _with_lines(client: ClientSetup, alias: str, *lines: str) -> int:
    """The config with `lines` appended under Host alias; the number of the last one."""
    text = client.config.read_text() + f"Host {alias}\n" + "".join(f"  {line}\n" for line in lines)
    client.config.write_text(text)
    return len(text.splitlines())


def test_an_open_quote_in_the_hosts_proxy_command_is_refused_with_its_line(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("gpu01", sshd)
    number = _with_lines(client, "gpu01", 'ProxyCommand "/usr/bin/nc %h %p')
    assert f"line {number}: invalid quotes" in _ssh_refuses(client.config, "gpu01")
    with pytest.raises(UsageError) as refused:
        connect("gpu01", client.options())
    said = f"ssh config {client.config} line {number}: invalid quotes (unclosed \" in '\"/usr/bin/nc %h %p')"
    assert refused.value.message == said, refused.value.message
    assert refused.value.hint == "ssh(1) refuses this file too; close the quote"


def test_an_open_quote_under_another_hosts_block_is_refused(client: ClientSetup) -> None:
    number = _with_lines(client, "unused", 'IdentityFile "~/.ssh/id_old')
    assert f"line {number}: invalid quotes" in _ssh_refuses(client.config, "target")
    with pytest.raises(UsageError) as refused:
        connect("target", client.options())
    said = f"ssh config {client.config} line {number}: invalid quotes (unclosed \" in '\"~/.ssh/id_old')"
    assert refused.value.message == said, refused.value.message


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("BatchMode maybe", "BatchMode 'maybe' is not yes or no"),
        ("StrictHostKeyChecking maybe", "StrictHostKeyChecking 'maybe' is not a value ssh(1) knows"),
        ("ConnectTimeout soon", "ConnectTimeout 'soon' is not a time (write seconds, or e.g. 1m30s)"),
        ("AddressFamily ipv4", "AddressFamily 'ipv4' is not any, inet or inet6"),
    ],
)
def test_a_bad_value_in_any_block_is_refused_with_file_and_line(client: ClientSetup, line: str, said: str) -> None:
    number = _with_lines(client, "unused", line)
    _ssh_refuses(client.config, "target")
    with pytest.raises(UsageError) as refused:
        load_ssh_config(client.config)
    assert refused.value.message == f"ssh config {client.config} line {number}: {said}", refused.value.message


def test_a_bad_value_under_the_host_itself_names_file_and_line(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("gpu01", sshd, StrictHostKeyChecking="maybe")
    with pytest.raises(UsageError) as refused:
        connect("gpu01", client.options())
    assert refused.value.message.startswith(f"ssh config {client.config} line "), refused.value.message
    assert refused.value.message.endswith(": StrictHostKeyChecking 'maybe' is not a value ssh(1) knows"), refused.value.message
    assert refused.value.hint == "write yes, accept-new, no (off) or ask"


def test_a_quote_in_a_commands_trailing_comment_is_still_read(client: ClientSetup, sshd: SshServer) -> None:
    # ssh(1) stops splitting at a word that starts with `#`: the comment's apostrophe opens nothing.
    client.alias("gpu01", sshd, ProxyCommand="nc %h %p # don't use the bastion here")
    target = resolve_target("gpu01", load_ssh_config(client.config))
    assert (target.proxy_command or "").startswith(f"nc 127.0.0.1 {sshd.port}"), target.proxy_command
