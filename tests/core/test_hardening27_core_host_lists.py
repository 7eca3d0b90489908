"""`--host "$(scontrol show hostnames)"` (Slurm prints one name a line) and `--host "$HOSTS"` with
HOSTS="gpu01 gpu02": several hosts, as a comma list is. Taken whole it was "cannot parse host
'gpu01\\ngpu02'". A pasted ssh command line (`alice@gpu01 -p 2222`) is refused whole, not run
on a host '-p' and on 2222 (an IPv4 address to inet_aton)."""

from __future__ import annotations

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.hosts import resolve_hosts


def names(*host: str, patterns: tuple[str, ...] = ()) -> list[str]:
    return [spec.name for spec in resolve_hosts(list(host), list(patterns), None, None)]


def test_hosts_one_a_line_or_spaced_are_several_hosts():
    assert names("gpu01\ngpu02\n", "gpu03 alice@gpu04:2222\t[::1]:22") == [
        "gpu01", "gpu02", "gpu03", "alice@gpu04:2222", "[::1]:22"]
    assert names("local", patterns=("gpu[01-02] cpu[1-2]",)) == ["local", "gpu01", "gpu02", "cpu1", "cpu2"]


@pytest.mark.parametrize("value, said", [("alice@gpu01 -p 2222", "('-p' is an ssh option)"),
                                         ("ssh alice@gpu01", "is an ssh command line")])
def test_a_pasted_ssh_command_line_is_refused_whole(value, said):
    with pytest.raises(UsageError) as raised:
        names(value)
    assert said in raised.value.message and "alice@gpu01:2222" in raised.value.hint
