"""`retry_delay:` longer than a run can wait.

`retry_delay: 100000000000` (a slip of the thumb, or milliseconds meant) passed `playbooks
validate`, and the run ended the host after the step's first attempt with "internal error:
OverflowError: timestamp out of range for platform time_t" (threading's wait refuses more than
threading.TIMEOUT_MAX). It is refused with the playbook's line now, before anything runs.
Through the real CLI on --host local.
"""

from __future__ import annotations

import threading

from tests.conftest import run_cli

PLAYBOOK = "name: poll\nsteps:\n  - id: health\n    run: exit 1\n    retries: 1\n    retry_delay: 100000000000\n"


def test_a_retry_delay_past_the_longest_wait_is_refused_with_its_line(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    longest = int(threading.TIMEOUT_MAX)
    for args in (("playbooks", "validate", str(playbook)),
                 ("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))):
        result = run_cli(*args)
        assert result.code == 2, result.stderr
        assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
        assert f"p.yaml:6:18: Input should be less than or equal to {longest} (at steps[0].retry_delay)" in result.stderr
        assert f"hint: retry_delay is a number at most {longest}\n" in result.stderr, result.stderr
    assert not (tmp_path / "runs").exists()


def test_a_long_retry_delay_within_the_bound_is_still_valid(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK.replace("100000000000", "86400"), encoding="utf-8")
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 0, result.stderr
