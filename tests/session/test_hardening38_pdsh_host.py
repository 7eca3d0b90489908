"""A command run by ``pdsh -w HOST`` runs on that host.

pdsh(1) runs its command line on each host ``-w`` names, through rcmd (ssh by default): the
words after its options are one command line for the remote shell, as ssh's are. ``pdsh -w
gpu09 'nvidia-smi'`` reached gpu09; the analyzer read no host and the whole pdsh line as the
command, so the timeline put it on the machine the session ran on. Several hosts (a list, a
range, a file) are no one host.
"""

import pytest

from spec_debug.session.shell import categorize, parse_target


@pytest.mark.parametrize("command,user", [
    ("pdsh -w gpu09 'nvidia-smi'", None),
    ("pdsh -w gpu09 nvidia-smi", None),
    ("pdsh -R ssh -t 10 -w gpu09 'nvidia-smi'", None),
    ("pdsh -l ubuntu -w gpu09 'nvidia-smi'", "ubuntu"),
    ("pdsh -w ubuntu@gpu09 'nvidia-smi'", "ubuntu"),
    ("pdsh -wgpu09 nvidia-smi", None),
    ("pdsh -w gpu[09] 'nvidia-smi'", None),
])
def test_one_named_host_is_where_the_command_ran(command, user):
    target = parse_target(command)
    assert (target.host, target.user, target.inner) == ("gpu09", user, "nvidia-smi")
    assert categorize(command) == "gpu_status"


@pytest.mark.parametrize("command", [
    "pdsh -w gpu09,gpu10 'nvidia-smi'",
    "pdsh -w gpu[09-12] 'nvidia-smi'",
    "pdsh -w ^/etc/hosts.gpu 'nvidia-smi'",
    "pdsh -a 'nvidia-smi'",
])
def test_several_hosts_are_no_one_host(command):
    assert parse_target(command).host is None


def test_a_container_on_the_host_is_kept():
    target = parse_target("pdsh -w gpu09 'docker exec sglang nvidia-smi'")
    assert (target.host, target.container, target.inner) == ("gpu09", "docker:sglang", "nvidia-smi")
