"""A misspelt ssh option was answered with the closest keyword ssh(1) knows, deprecated ones
included: `-o Cipherz=aes256-ctr` (inventory ssh args) said "did you mean cipher?", SSH-1's
keyword, which ssh(1) only warns about and ignores (readconf.c: oDeprecated), so following the
hint set no cipher at all. Now only keywords ssh(1) still acts on are suggested: "ciphers".
A config or argument holding a deprecated keyword is still read (not refused)."""

from __future__ import annotations

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_args import parse_ssh_args
from spec_debug.runner.ssh_config_keywords import did_you_mean, known_keyword


def test_a_misspelt_option_is_offered_the_keyword_ssh_still_reads():
    with pytest.raises(UsageError) as err:
        parse_ssh_args("-o Cipherz=aes256-ctr", source="inventory.ini:3 gpu01 ansible_ssh_common_args")
    assert "Bad configuration option: Cipherz (did you mean ciphers?)" in str(err.value)


@pytest.mark.parametrize(("typed", "meant"), [("Cipherz", "ciphers"), ("Protocoll", None),
                                              ("UseRoamin", None), ("CompressionLevl", "compression"), ("IdentityFil", "identityfile")])
def test_deprecated_keywords_are_never_the_suggestion(typed, meant):
    assert did_you_mean(typed) == (f" (did you mean {meant}?)" if meant else "")


def test_deprecated_keywords_stay_known():
    assert known_keyword("Cipher") and known_keyword("Protocol")
    parse_ssh_args("-o Protocol=2")  # read, as ssh(1) reads it (a warning, no refusal)


def test_a_near_miss_of_a_deprecated_keyword_in_a_config_is_still_refused_without_a_suggestion(tmp_path):
    from spec_debug.runner.ssh_config_keywords import BadConfigLine, check_config_line

    with pytest.raises(BadConfigLine) as err:  # every ssh(1) refuses it; nothing current is near
        check_config_line("UseRoamingX no", ["no"], tmp_path / "config", 2, [])
    assert str(err.value).splitlines()[0].endswith("line 2: Bad configuration option: UseRoamingX")
