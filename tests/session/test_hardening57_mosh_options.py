"""mosh's options with a value (mobile-shell/mosh scripts/mosh.pl, GetOptions: client=s,
server=s, predict=s, port=s, family=s, p=s, ssh=s, bind-server=s, experimental-remote-ip=s) may
be written as their own word, and ``--ssh`` is the ssh command mosh starts mosh-server with
(shellwords of it, then "user@host"): ``mosh --ssh 'ssh -p 2222' gpu02`` was read as host
"ssh -p 2222" running "gpu02", ``mosh --server /opt/bin/mosh-server gpu02`` as host
"/opt/bin/mosh-server", and ``mosh --ssh='ssh -p 2222' gpu02`` lost port 2222. ``mosh -- gpu02``
(mosh(1): ``mosh [options] [--] [user@]host [command...]``) named no host."""

from __future__ import annotations

from spec_debug.session.shell import parse_target


def test_separate_option_values_are_not_the_host() -> None:
    assert parse_target("mosh --ssh 'ssh -p 2222' gpu02").host == "gpu02"
    t = parse_target("mosh --server /opt/bin/mosh-server gpu02 nvidia-smi")
    assert (t.host, t.inner) == ("gpu02", "nvidia-smi")
    assert parse_target("mosh --family inet ubuntu@gpu02").host == "gpu02"
    assert parse_target("mosh -p 60001 gpu02").port is None  # mosh-server's UDP port, not ssh's


def test_the_ssh_command_gives_port_jump_and_user() -> None:
    t = parse_target("mosh --ssh='ssh -p 2222' gpu02")
    assert (t.host, t.port) == ("gpu02", 2222)
    t = parse_target("mosh --ssh 'ssh -p 2222 -J bastion -l bob' alice@gpu02")
    assert (t.host, t.port, t.jump, t.user) == ("gpu02", 2222, "bastion", "bob")
    assert parse_target("mosh ubuntu@gpu02").user == "ubuntu"


def test_double_dash_before_the_host() -> None:
    assert parse_target("mosh -- gpu02").host == "gpu02"
