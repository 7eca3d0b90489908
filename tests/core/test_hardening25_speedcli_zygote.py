"""The CLI zygote behind `run_cli` (tests/cli_runner.py) gives what `python -m spec_debug`
gives: the same bytes and exit status, the caller's cwd, the timeout's kill, and the plain
subprocess wherever an environment read at interpreter start differs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests import cli_runner

pytestmark = pytest.mark.skipif(cli_runner._disabled(), reason="the zygote needs fork and Unix sockets")


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "COLUMNS": "200", **extra}


def test_a_usage_error_is_the_same_bytes_as_python_dash_m():
    # click names the program from __main__ and sys.argv[0]: "Usage: python -m spec_debug ..."
    # only if the child runs the package as `python -m` does.
    args = ("playbooks", "nosuch")
    served = cli_runner.serve(args, None, 60, _env(), overridden=False)
    plain = subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True,
                           timeout=60, env=_env())
    assert served == (plain.returncode, plain.stdout, plain.stderr)
    assert served[0] == 2 and "python -m spec_debug playbooks" in served[2]


def test_the_child_runs_in_the_callers_folder(tmp_path):
    (tmp_path / "mine.yaml").write_text("name: mine\nsteps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    code, out, err = cli_runner.serve(("playbooks", "validate", "mine.yaml"), tmp_path, 60, _env(), overridden=False)
    assert (code, err) == (0, ""), err
    assert "mine.yaml (1 step)" in out


def test_an_environment_read_at_start_goes_to_the_plain_subprocess():
    assert cli_runner.serve(("version",), None, 60, _env(PYTHONIOENCODING="ascii"), overridden=True) is None


def test_a_timeout_kills_the_child_as_subprocess_run_does(tmp_path):
    playbook = tmp_path / "slow.yaml"
    # A child not killed at the 0.5 s timeout runs the 120 s step out; a killed one ends in about
    # a second. The bound sits far from both (it was 10 s against a 30 s step: a loaded CI
    # worker stalls for several seconds).
    # The step's shell writes its pid (its own process group, start_new_session): the SIGKILLed
    # CLI leaves the step behind, which the test kills, not the 120 s.
    step = tmp_path / "step.pid"
    playbook.write_text(f"name: slow\nsteps:\n  - id: wait\n    run: echo $$ > {step}; exec sleep 120\n",
                        encoding="utf-8")
    cli_runner.serve(("version",), None, 60, _env(), overridden=False)  # a zygote already started
    started = time.monotonic()
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            cli_runner.serve(("run", str(playbook), "-H", "local", "--out", str(tmp_path / "runs")),
                             None, 0.5, _env(), overridden=False)
        assert time.monotonic() - started < 40
    finally:
        if step.exists() and step.read_text().strip():
            try:
                os.killpg(int(step.read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_a_home_of_its_own_is_served_with_that_home(tmp_path):
    # The SSH tests give every test its own HOME (tests/ssh/conftest.py): read at start only for
    # a user site-packages folder, which neither HOME has, so the zygote serves it.
    playbook = tmp_path / "home.yaml"
    playbook.write_text("name: home\nsteps:\n  - id: home\n    run: echo \"home=$HOME\"\n", encoding="utf-8")
    served = cli_runner.serve(("run", str(playbook), "-H", "local", "--out", str(tmp_path / "runs"), "--json"),
                              None, 60, _env(HOME=str(tmp_path)), overridden=True)
    assert served is not None and served[0] == 0, served
    assert f"home={tmp_path}" in served[1]
