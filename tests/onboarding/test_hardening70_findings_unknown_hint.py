"""`spec-debug findings SD99` suggested SD709 and `findings SD8` SD708 (difflib's best of a bad lot);
`findings hello` named SD001-SD003. A code that starts no family says what codes look like and how
the families divide; a code one slip away is still named, and only that one."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.catalog import CATALOG, code_families
from tests.conftest import run_cli

HOW_CODES_LOOK = "finding codes are SD and three digits: "


def test_the_families_come_from_the_catalog_areas() -> None:
    families = code_families().split(", ")
    assert families[0] == "SD0xx runner"
    assert "SD1xx launch flags" in families and "SD7xx draft config" in families
    assert [f[:3] for f in families] == sorted({code[:3] for code in CATALOG})


@pytest.mark.parametrize("typed", ["SD999", "SD1234", "hello"])
def test_a_code_no_family_starts_says_what_codes_look_like(typed: str) -> None:
    result = run_cli("findings", typed)
    assert result.code == 2
    hint = result.stderr.splitlines()[-1]
    assert hint == f"  hint: {HOW_CODES_LOOK}{code_families()}; `spec-debug findings` lists them all"
    assert "SD70" not in hint  # no SD709 / SD708 suggested


@pytest.mark.parametrize(("typed", "prefix"), [("SD99", "SD99"), ("SD8", "SD8"), ("sd 80", "SD80")])
def test_the_start_of_no_code_says_so_and_what_codes_look_like(typed: str, prefix: str) -> None:
    result = run_cli("findings", typed)
    assert result.code == 2
    hint = result.stderr.splitlines()[-1]
    assert hint == (f"  hint: no finding code starts with {prefix}: {HOW_CODES_LOOK.replace('finding codes', 'codes')}"
                    f"{code_families()}; `spec-debug findings` lists them all")
    assert "SD70" not in hint


@pytest.mark.parametrize(("typed", "near"), [("SD611", "SD601"), ("SD2O1", "SD201"), ("S201", "SD201")])
def test_a_code_one_slip_away_is_named_alone(typed: str, near: str) -> None:
    result = run_cli("findings", typed)
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == f"  hint: known codes include {near}; `spec-debug findings` lists them all"


def test_the_start_of_host_smokes_own_codes_names_that_playbook() -> None:
    result = run_cli("findings", "SD9")
    assert result.code == 2
    assert "SD901, of the shipped playbook host_smoke: `spec-debug explain host_smoke`" in result.stderr
