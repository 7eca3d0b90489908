"""Playbook core: a Jinja test that compares with a value, written without one (`when: x is
sameas`), is refused when the playbook loads (it failed mid-run with "TypeError: test_sameas()
missing 1 required positional argument"); `x is sameas true` works as Jinja's. `--host ","` (or
an unset $HOSTS inside commas) names no host and is refused (with an inventory, the run went to
every host there). A YAML alias bomb is refused at the alias that takes it past the bound, with
its line and column, in milliseconds (it took 3.3 s: the builder met it after 200,000 values)."""

from __future__ import annotations

import time

import pytest

from spec_debug.errors import PlaybookError, UsageError
from spec_debug.playbook.loader import load_playbook, load_playbook_text
from spec_debug.runner.hosts import resolve_hosts

PLAYBOOK = "name: x\nvars:\n  x: true\nsteps:\n  - id: one\n    title: one\n    run: echo hi\n    when: {when}\n"


@pytest.mark.parametrize("when, given", [("x is sameas", 0), ("x is not sameas", 0), ("x is divisibleby", 0),
                                         ("x is sameas(1, 2)", 2)])
def test_a_comparing_test_without_its_value_is_refused_at_load(when, given):
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(PLAYBOOK.format(when=when), "p.yaml")
    message = raised.value.message
    assert message.startswith("p.yaml:8:11") and f"one value to compare with, {given} given" in message
    assert "x is sameas VALUE" in message or "x is divisibleby VALUE" in message


@pytest.mark.parametrize("when", ["x is sameas true", "x is sameas(true)", "x is not sameas none", "x is divisibleby 3"])
def test_a_comparing_test_with_its_value_loads(when):
    assert load_playbook_text(PLAYBOOK.format(when=when), "p.yaml").steps[0].when == when


@pytest.mark.parametrize("hosts, patterns, flag", [([","], [], "--host"), ([" , "], [], "--host"),
                                                   ([], [","], "--hosts")])
def test_a_host_list_of_no_host_is_refused_even_with_an_inventory(tmp_path, hosts, patterns, flag):
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\ngpu01 ansible_host=10.0.0.1\ngpu02 ansible_host=10.0.0.2\n", encoding="utf-8")
    with pytest.raises(UsageError) as raised:
        resolve_hosts(hosts, patterns, inventory, None)
    assert raised.value.message == f"{flag} {(hosts or patterns)[0]!r} names no host"
    assert f"leave {flag} out" in raised.value.hint


def test_without_an_inventory_the_refusal_says_only_how_to_name_hosts():
    with pytest.raises(UsageError) as raised:
        resolve_hosts([","], [], None, None)
    assert raised.value.message == "--host ',' names no host" and "inventory" not in raised.value.hint


def test_an_alias_bomb_is_refused_fast_at_its_alias(tmp_path):
    lines = ["name: x", "vars:", "  a: &a [" + ",".join(["lol"] * 9) + "]"]
    lines += [f"  {n}: &{n} [" + ",".join(["*" + p] * 9) + "]" for p, n in zip("abcdefgh", "bcdefghi")]
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join([*lines, "steps:", "  - id: one", "    run: echo hi", ""]), encoding="utf-8")
    # This thread's CPU time, not the wall clock: a loaded machine kept the worker off the CPU for
    # most of a second around a millisecond's work (seen: 0.85 s wall for 1 ms of CPU).
    began = time.thread_time()
    with pytest.raises(PlaybookError) as raised:
        load_playbook(path)
    assert time.thread_time() - began < 0.5  # ~3 ms; the builder's 200,000 values took 3.3 s
    # a: 10 values, b: 91, c: 820, d: 7,381, e: 66,430; f's second *e takes the playbook past 200,000
    assert raised.value.message.startswith(f"{path}:8:13: the playbook expands to more than 200000 values")
    assert "through YAML aliases" in raised.value.message
