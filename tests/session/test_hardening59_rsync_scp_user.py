"""Which user ``rsync -e 'ssh -l bob' file alice@gpu02:/x`` and ``scp -o User=bob f alice@gpu02:/x``
log in as. Both hand the operand's ``alice@`` to ssh as ``-l alice`` AFTER the options they were
given: rsync runs the -e words, then ``-l USER``, then the host (RsyncProject/rsync main.c,
do_cmd); scp passes its -o options, then ``-l alice -- gpu02`` (OpenSSH 9.2 scp, its argv
printed by the program named with -S). ssh keeps the first user it is given (``ssh -G -l bob -l
alice gpu02`` prints ``user bob``): the login is bob's. Before: alice."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.session.shell import parse_target


def test_rsync_e_ssh_l_beats_the_paths_user() -> None:
    assert parse_target("rsync -e 'ssh -l bob' file alice@gpu02:/x").user == "bob"
    t = parse_target("rsync -av --rsh='ssh -o User=bob -p 2222' alice@gpu02:/w/ ./w")
    assert (t.host, t.user, t.port) == ("gpu02", "bob", 2222)
    assert parse_target("rsync -e 'ssh -l bob' file gpu02:/x").user == "bob"
    assert parse_target("rsync -e 'ssh -p 2222' file alice@gpu02:/x").user == "alice"


def test_scp_o_user_beats_the_operands_user() -> None:
    assert parse_target("scp -o User=bob f alice@gpu02:/x").user == "bob"
    assert parse_target("scp -oUser=bob alice@gpu02:/x .").user == "bob"
    t = parse_target("scp -P 2222 f alice@gpu02:/x")
    assert (t.host, t.user, t.port) == ("gpu02", "alice", 2222)


@pytest.mark.skipif(not (shutil.which("ssh") and shutil.which("scp")), reason="needs OpenSSH's ssh and scp")
def test_what_ssh_and_scp_do(tmp_path: Path) -> None:
    """The facts the parse follows, from the real programs (no connection made)."""
    g = subprocess.run(["ssh", "-G", "-l", "bob", "-l", "alice", "gpu02"], capture_output=True, text=True,
                       check=True, stdin=subprocess.DEVNULL).stdout
    assert "user bob" in g.splitlines()
    g = subprocess.run(["ssh", "-G", "-o", "User=bob", "-l", "alice", "gpu02"], capture_output=True, text=True,
                       check=True, stdin=subprocess.DEVNULL).stdout
    assert "user bob" in g.splitlines()
    argv = tmp_path / "argv.txt"
    fake_ssh = tmp_path / "print-argv"
    fake_ssh.write_text(f'#!/bin/sh\necho "$@" >> {argv}\n')
    fake_ssh.chmod(0o755)
    (tmp_path / "f").write_text("x")
    subprocess.run(["scp", "-S", str(fake_ssh), "-o", "User=bob", "f", "alice@gpu02:/x"], cwd=tmp_path,
                   capture_output=True, stdin=subprocess.DEVNULL, timeout=30, env={**os.environ})
    words = argv.read_text().split()
    assert words.index("User=bob") < words.index("-l") < words.index("gpu02")
    assert words[words.index("-l") + 1] == "alice"
