"""The check that a step's processes are gone (ssh._TREE_ALIVE_SCRIPT) on a host without /proc
(BSD, macOS): it cannot see any process, and used to answer "gone", so a step that left a writer
behind was read for held-back output instead of let go. It now answers "alive" there. Run here in
a mount namespace whose /proc is an empty tmpfs (root only; skipped elsewhere)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from spec_debug.runner.ssh import _TREE_ALIVE_SCRIPT


def _check(pid: int, *, without_proc: bool) -> int:
    script = _TREE_ALIVE_SCRIPT.format(pid=pid)
    if not without_proc:
        return subprocess.run(["sh", "-c", script], timeout=30).returncode
    hidden = f"mount -t tmpfs none /proc && exec sh -c '{script.replace(chr(39), chr(39) + chr(92) + chr(39) + chr(39))}'"
    return subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", hidden], timeout=30).returncode


@pytest.fixture()
def namespaces():
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare to hide /proc")
    if subprocess.run(["unshare", "--mount", "--propagation", "private", "true"]).returncode != 0:
        pytest.skip("this machine refuses a mount namespace")


def test_with_proc_a_live_group_is_alive_and_a_dead_one_gone(namespaces):
    sleeper = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        assert _check(sleeper.pid, without_proc=False) == 0
    finally:
        sleeper.kill()
        sleeper.wait()
    assert _check(sleeper.pid, without_proc=False) == 1


def test_without_proc_the_check_says_alive(namespaces):
    assert _check(999_999, without_proc=True) == 0
