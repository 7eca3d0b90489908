"""``ProxyJump none`` turns off a jump host the ssh config sets (ssh_config(5), ProxyJump:
"Setting this option to none disables it"): ``ssh -o ProxyJump=none gpu01`` reaches gpu01
directly. The analyzer kept "none" as the jump host, and distill told the on-call "The
session reached it through the jump host none: give gpu01 `ProxyJump none` in ~/.ssh/config"."""

import pytest

from spec_debug.session.shell import parse_target


@pytest.mark.parametrize("command", [
    "ssh -o ProxyJump=none gpu01 nvidia-smi",
    "ssh -o 'ProxyJump None' gpu01 nvidia-smi",
    "ssh -J none gpu01 nvidia-smi",
    "scp -o ProxyJump=none gpu01:/var/log/sglang.log .",
    "rsync -e 'ssh -o ProxyJump=none' gpu01:/var/log/sglang.log .",
])
def test_none_is_no_jump_host(command):
    target = parse_target(command)
    # before: jump "none" ("None")
    assert (target.host, target.jump) == ("gpu01", None)


def test_a_named_jump_host_stays():
    assert parse_target("ssh -o ProxyJump=admin@bastion gpu01 nvidia-smi").jump == "admin@bastion"
    assert parse_target("scp -J bastion gpu01:/x .").jump == "bastion"
