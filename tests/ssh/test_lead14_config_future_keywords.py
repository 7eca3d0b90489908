"""A keyword no OpenSSH release we know has (a newer ssh's, a vendor build's) is passed over with
one warning, not a refusal that stops every host of the run: the user's own ssh(1) may read
the file. A near miss of a known keyword is a typo every ssh(1) refuses, and is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config import load_ssh_config


def config(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "config"
    path.write_text(f"Host gpu01\n  HostName 10.0.0.7\n  {extra}\n  Port 2222\n")
    return path


def test_an_unknown_keyword_far_from_any_known_one_is_ignored_with_one_warning(tmp_path, capsys):
    path = config(tmp_path, "PostQuantumPolicy strict")
    for _ in range(2):  # a fleet reads the config once per host: one warning
        found = load_ssh_config(path).lookup("gpu01")
        assert (found["hostname"], found["port"]) == ("10.0.0.7", "2222")
    warnings = [line for line in capsys.readouterr().err.splitlines() if "PostQuantumPolicy" in line]
    assert len(warnings) == 1 and "line 3" in warnings[0] and "IgnoreUnknown PostQuantumPolicy" in warnings[0]


def test_ignore_unknown_silences_it(tmp_path, capsys):
    path = tmp_path / "config"
    path.write_text("IgnoreUnknown FutureThing\nHost gpu01\n  FutureThing yes\n  HostName 10.0.0.8\n")
    assert load_ssh_config(path).lookup("gpu01")["hostname"] == "10.0.0.8"
    assert "FutureThing" not in capsys.readouterr().err


def test_a_near_miss_is_still_a_typo(tmp_path):
    with pytest.raises(UsageError) as caught:
        load_ssh_config(config(tmp_path, "Hostnam 10.0.0.9"))
    assert "line 3: Bad configuration option: Hostnam (did you mean hostname?)" in str(caught.value)
