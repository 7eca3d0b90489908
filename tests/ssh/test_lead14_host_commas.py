"""`--host gpu01,gpu02` names two hosts (as pdsh -w and Ansible's `-i a,b,` do): taken whole it
was one host "gpu01,gpu02" that no resolver knows. Brackets and IPv6 literals keep their commas
and colons; `--host` values are still names, never ranges."""

from __future__ import annotations

from spec_debug.runner.hosts import resolve_hosts
from tests.conftest import run_cli


def names(*host: str) -> list[str]:
    return [spec.name for spec in resolve_hosts(list(host), [], None, None)]


def test_a_comma_list_in_host_is_several_hosts():
    assert names("gpu01,gpu02", "gpu03") == ["gpu01", "gpu02", "gpu03"]
    assert names("alice@gpu01:2222, [::1]:2222,") == ["alice@gpu01:2222", "[::1]:2222"]


def test_two_local_hosts_in_one_value_are_the_same_host_twice(tmp_path):
    (tmp_path / "p.yaml").write_text("name: p\nsteps:\n  - id: a\n    run: echo a\n")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local,local", "--out", str(tmp_path / "runs"))
    assert result.code == 0, result.stderr
