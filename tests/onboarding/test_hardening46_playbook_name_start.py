"""`spec-debug explain perf` (the start of perf_regression, as a newcomer remembers it from the
README) got the bare list of four playbooks: difflib finds nothing that much shorter than the
name. The one shipped playbook whose name starts so is now suggested; a start shared by none or
by several still gets the list."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("typed, meant", [("perf", "perf_regression"), ("hid", "hidden_state_format"),
                                          ("drafter", "drafter_accuracy"), ("Perf_R", "perf_regression")])
def test_the_start_of_a_playbook_name_suggests_it(tmp_path, typed, meant):
    for command in ("explain", "run"):
        result = run_cli(command, typed, "--host", "local", cwd=tmp_path) if command == "run" else \
            run_cli(command, typed, cwd=tmp_path)
        assert result.code == 2
        assert result.stderr.splitlines()[-1] == f"  hint: did you mean {meant!r}?"


def test_a_start_too_short_to_tell_still_lists_them(tmp_path):
    result = run_cli("run", "pe", "--host", "local", cwd=tmp_path)
    assert result.stderr.splitlines()[-1] == (
        "  hint: shipped playbooks: drafter_accuracy, hidden_state_format, host_smoke, perf_regression")
    # explain lists them among the other kinds of topic it takes (test_hardening70_explain_unknown_topic)
    result = run_cli("explain", "pe", cwd=tmp_path)
    assert "a file, or shipped: drafter_accuracy, hidden_state_format, host_smoke, perf_regression)" in \
        result.stderr.splitlines()[-1]
