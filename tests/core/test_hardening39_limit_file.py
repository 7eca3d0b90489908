"""`--limit @FILE` is read as an inventory is: bounded, a compressed or UTF-16 host list named
or decoded, never read whole into memory (`--limit @/dev/zero` ended in a MemoryError)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.hosts import resolve_hosts


@pytest.fixture
def inventory(tmp_path: Path) -> Path:
    path = tmp_path / "hosts.ini"
    path.write_text("[gpus]\ngpu01\ngpu02\ngpu03\n")
    return path


def _names(inventory: Path, limit: str) -> list[str]:
    return [spec.name for spec in resolve_hosts([], [], inventory, limit)]


def test_a_limit_file_too_big_to_be_a_host_list_is_refused_without_reading_it_whole(
        inventory: Path, tmp_path: Path) -> None:
    # A sparse file past the cap: before, it was read whole and its NULs became one pattern.
    huge = tmp_path / "model.retry"
    with open(huge, "wb") as handle:
        handle.truncate(17 * 2**20)
    with pytest.raises(UsageError) as caught:
        _names(inventory, f"@{huge}")
    assert "--limit @" in caught.value.message and "over 16 MiB" in caught.value.message
    assert caught.value.hint


def test_a_gzipped_limit_file_is_named_as_compressed(inventory: Path, tmp_path: Path) -> None:
    packed = tmp_path / "site.retry.gz"
    packed.write_bytes(gzip.compress(b"gpu02\n"))
    with pytest.raises(UsageError) as caught:
        _names(inventory, f"@{packed}")
    assert "gzip" in caught.value.message and "not UTF-8" not in caught.value.message


def test_a_utf16_limit_file_from_powershell_is_read(inventory: Path, tmp_path: Path) -> None:
    retry = tmp_path / "site.retry"
    retry.write_bytes("gpu03\r\ngpu01\r\n".encode("utf-16"))  # PowerShell 5's `>`: BOM, UTF-16LE
    assert _names(inventory, f"@{retry}") == ["gpu01", "gpu03"]
