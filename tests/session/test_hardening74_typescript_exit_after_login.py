"""script(1)'s closing status after an ssh login, given back at a bare ``exit``.

The ``exit`` typed at the laptop's last prompt leaves with the status of the last command of that
shell (bash(1), exit): after ``ssh gpu02`` (a login left with ``exit``) it is ssh's, the login's,
not that of the ``exit`` typed on gpu02 nor of a command typed there. Before this was checked the
``exit`` typed on gpu02 took the 127 and failed. A one-shot ``ssh gpu02 nvidia-smi`` was typed in
the laptop's shell, and its status is the 127."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h74_exit"


def _commands(name: str):
    return [(c.command, c.host, c.exit_code, c.is_error) for c in analyze_path(DATA / name).commands]


def test_the_exit_of_an_ssh_login_takes_no_status() -> None:
    assert _commands("ssh_login_then_exit.typescript") == [
        ("ssh gpu02", "gpu02", None, False), ("nvidia-smi", "gpu02", None, True),
        ("exit", "gpu02", None, False), ("exit", "laptop", None, False)]


def test_a_one_shot_ssh_takes_the_status() -> None:
    assert _commands("ssh_one_shot_then_exit.typescript") == [
        ("ssh gpu02 nvidia-smi", "gpu02", 127, True), ("exit", "laptop", None, False)]
