"""`explain 'sd 901'` or `explain [SD901]` (a playbook's code pasted from a report, as `findings`
reads it) got the bare list of shipped playbooks, where `explain SD901` names host_smoke, the
playbook that defines it; `explain 'sd 999'` lacked the word that it is no catalog code."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("typed", ["SD901", "sd 901", "[SD901]", "sd_901", " sd-901 "])
def test_a_playbook_code_pasted_any_way_names_its_playbook(typed: str) -> None:
    result = run_cli("explain", typed)
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == (
        "  hint: SD901 is not in the finding catalog: SD901 is a finding code of the shipped playbook "
        "host_smoke: `spec-debug explain host_smoke` says what it checks and why")


@pytest.mark.parametrize("typed", ["sd 999", "[sd999]"])
def test_an_unknown_code_pasted_any_way_is_said_to_be_unknown(typed: str) -> None:
    result = run_cli("explain", typed)
    assert result.code == 2
    assert "SD999 is not in the finding catalog (`spec-debug findings` lists it)" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_playbook_name_is_no_code() -> None:
    result = run_cli("explain", "host_smok")
    assert result.stderr.splitlines()[-1] == "  hint: did you mean 'host_smoke'?"
