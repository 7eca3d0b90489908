"""Review of d5c6557 (--host lists split on white space): a pasted ssh command line is refused
with the host written as it should be (`ssh -p 2222 -l alice gpu01` is alice@gpu01:2222, not the
fixed example), a pasted `gpu01 2222` is refused (split, 2222 was a second host: 0.0.8.174 to
inet_aton), and one host with a line break after it (a file saved on Windows, `gpu01\\r`) is
named without it (was the host 'gpu01\\r' in the records, a second host beside --host gpu01)."""

from __future__ import annotations

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.hosts import resolve_hosts


def names(*host: str) -> list[str]:
    return [spec.name for spec in resolve_hosts(list(host), [], None, None)]


@pytest.mark.parametrize("value, meant", [
    ("ssh -p 2222 gpu01", "--host gpu01:2222 "),
    ("ssh -l alice -p2200 gpu01 nvidia-smi", "--host alice@gpu01:2200 "),
    ("alice@fe80::1 -p 2222", "--host alice@[fe80::1]:2222 "),
    ("gpu01 2222", "--host gpu01:2222 "),
])
def test_a_pasted_line_is_refused_with_the_host_to_write(value, meant):
    with pytest.raises(UsageError) as raised:
        names(value)
    assert meant in raised.value.hint, raised.value


def test_a_line_break_after_one_host_is_not_part_of_its_name():
    assert names("gpu01\r\n", "gpu01", " alice@gpu02:2222\n") == ["gpu01", "alice@gpu02:2222"]


def test_a_pasted_line_in_hosts_patterns_is_refused_too():
    """`--hosts 'gpu[01-02] -p 22'` split on spaces ran on the hosts '-p' and '22'."""
    with pytest.raises(UsageError) as raised:
        resolve_hosts([], ["gpu[01-02] -p 22"], None, None)
    assert raised.value.message.startswith("--hosts 'gpu[01-02] -p 22' is an ssh command line"), raised.value
    assert "write --hosts gpu[01-02]:22 " in raised.value.hint
    assert [spec.name for spec in resolve_hosts([], ["gpu[01-02]:22 cpu1"], None, None)] == ["gpu01:22", "gpu02:22", "cpu1"]


def test_a_hostfile_given_whole_is_read_as_its_hosts_or_refused_in_one_line():
    """`--host "$(cat hostfile)"`: its comment lines named hosts '#', 'GPU' and 'nodes', and an
    OpenMPI hostfile's `slots=8` a host 'slots=8' (taken whole, before d5c6557, it was refused)."""
    assert names("# GPU nodes\ngpu01\ngpu02  # spare\n") == ["gpu01", "gpu02"]
    with pytest.raises(UsageError) as raised:
        names("gpu01 slots=8\ngpu02 slots=8\n")
    assert "'slots=8' is an MPI hostfile's setting, not a host" in raised.value.message, raised.value
