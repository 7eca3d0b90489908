"""`retry_delay:` on a step without `retries:` is refused where it is written.

A step runs again only while it has retries left (runner/engine.py), so `until: exit_code == 0`
with `retry_delay: 2` and no `retries:` (Ansible's `until`/`delay` habit) validated ok, ran the
health check once and failed it while the server was still loading: the delay was never waited.
It is now refused at load (exit 2, file:line:column of the key) with the key to add; a delay
with retries, and `retry_delay: 0` alone, load as before."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text
from tests.conftest import run_cli

POLL = """\
name: wait_healthy
steps:
  - id: health
    run: curl -sf http://127.0.0.1:30000/health
    until: exit_code == 0
{extra}"""


@pytest.mark.parametrize(("extra", "delay"), [
    ("    retry_delay: 2\n", "2"),
    ("    retries: 0\n    retry_delay: 1.5\n", "1.5"),
])
def test_a_delay_without_retries_is_refused_at_its_key(extra, delay):
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(POLL.format(extra=extra), source="p.yaml")
    error = raised.value
    assert (error.line, error.column) == (6 + extra.count("retries"), 5)
    assert str(error).startswith(
        f"p.yaml:{error.line}:5: retry_delay: {delay} waits between attempts, but step 'health' has no retries: "
        "it runs once and the delay is never waited")
    assert error.hint == (f"give the attempts after the first: retries: 10 (then retry_delay: {delay} waits between "
                          "them), or remove retry_delay")


@pytest.mark.parametrize("extra", ["    retries: 3\n    retry_delay: 2\n", "    retry_delay: 0\n", ""])
def test_a_delay_with_retries_or_none_at_all_still_loads(extra):
    step = load_playbook_text(POLL.format(extra=extra), source="p.yaml").steps[0]
    assert step.until == "exit_code == 0"


def test_validate_and_run_refuse_it_before_any_host_is_touched(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(POLL.format(extra="    retry_delay: 2\n"), encoding="utf-8")
    for args in (("playbooks", "validate", str(playbook)),
                 ("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))):
        result = run_cli(*args)
        assert result.code == 2, result.stderr
        assert "p.yaml:6:5: retry_delay: 2 waits between attempts" in " ".join(result.stderr.split())
    assert not (tmp_path / "runs").exists()
