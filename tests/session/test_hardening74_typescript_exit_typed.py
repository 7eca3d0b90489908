"""A script(1) typescript left with ``exit`` typed after a failed last command.

The typescripts in data_h74_exit are bash 5.2 under util-linux script 2.38.1 (its rows as script
wrote them: bracketed-paste marks, ``\\r\\n``): ``echo hi``, ``nvidia-smi`` (not installed, 127),
then the shell left, once with ``exit`` typed, once with Ctrl-D. Both close with
``Script done ... [COMMAND_EXIT_CODE="127"]``: bash's ``exit`` with no n leaves with "the status
of the last command executed" (bash(1), SHELL BUILTIN COMMANDS), as Ctrl-D does.

Before: with Ctrl-D ``nvidia-smi`` had status 127; with ``exit`` typed it had none (and the
``exit`` none either). Now the status script(1) records is given back to the command before the
``exit``, and the ``exit`` itself did not fail."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h74_exit"


def _commands(name: str):
    return [(c.command, c.exit_code, c.is_error) for c in analyze_path(DATA / name).commands]


def test_exit_typed_gives_the_last_command_its_status() -> None:
    assert _commands("exit_typed.typescript") == [
        ("echo hi", None, False), ("nvidia-smi", 127, True), ("exit", None, False)]


def test_exit_typed_reads_as_ctrl_d_does() -> None:
    assert _commands("ctrl_d.typescript") == [("echo hi", None, False), ("nvidia-smi", 127, True)]
    typed = analyze_path(DATA / "exit_typed.typescript")
    assert [e.message for e in typed.errors] == ["bash: nvidia-smi: command not found"]


def test_exit_with_a_status_of_its_own_is_not_passed_back(tmp_path: Path) -> None:
    text = (DATA / "exit_typed.typescript").read_bytes().replace(b"# exit\r\n", b"# exit 3\r\n")
    text = text.replace(b'"127"', b'"3"')
    (tmp_path / "t.typescript").write_bytes(text)
    got = [(c.command, c.exit_code) for c in analyze_path(tmp_path / "t.typescript").commands]
    assert got[1] == ("nvidia-smi", None)
