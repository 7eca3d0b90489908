"""Two fetched files with one long name from two folders: the second takes a free name beside
the first, the remote folder's name first (engine.unclaimed_path: draft-config.json). A host's
log of 200 bytes (a step's name, a date and a job id: well under the host's NAME_MAX) fetched
from two run folders of 100 made a 301-byte name, past Linux's NAME_MAX of 255, and the second
copy failed as SD003 "File name too long", losing that host's log. Under LC_ALL=C the %XX
spelling of a non-ASCII folder makes it three times longer still. Each candidate is now cut as
engine.local_name cuts a long name: its start, its extension and a hash of the whole name."""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

import pytest

from spec_debug.runner.engine import local_name, unclaimed_path

LOG = "eagle3-acceptance-" + "x" * 178 + ".log"  # 200 bytes
RUN = "run-" + "7" * 96  # 100 bytes


def _take(tmp_path: Path, remote: PurePosixPath) -> Path:
    local = unclaimed_path(tmp_path / local_name(remote.name), remote)
    local.write_text(str(remote), encoding="utf-8")  # was: OSError File name too long
    return local


def test_a_long_name_fetched_from_two_folders_keeps_both(tmp_path: Path) -> None:
    taken = [_take(tmp_path, PurePosixPath(f"/scratch/{RUN}-{n}/{LOG}")) for n in (1, 2, 3)]
    assert [path.read_text(encoding="utf-8") for path in taken] == [f"/scratch/{RUN}-{n}/{LOG}" for n in (1, 2, 3)]
    assert taken[0].name == LOG
    for path in taken[1:]:
        assert len(path.name.encode()) <= 255 and path.name.startswith(RUN) and path.name.endswith(".log"), path.name


def test_a_non_ascii_folder_under_the_c_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "getfilesystemencoding", lambda: "ascii")
    folder = "\u63a8\u7406\u6d4b\u8bd5" * 8  # 96 UTF-8 bytes, 288 once spelled %XX (cut to 255)
    first = _take(tmp_path, PurePosixPath("/a/config.json"))
    second = _take(tmp_path, PurePosixPath(f"/b/{folder}/config.json"))
    assert first.name == "config.json"
    assert second.name.startswith("%E6%8E%A8") and second.name.endswith(".json"), second.name
    assert len(second.name) <= 255, len(second.name)


def test_a_name_of_254_bytes_met_a_third_time_takes_a_counter_that_fits(tmp_path: Path) -> None:
    log = "x" * 250 + ".log"  # 254 bytes: the folder prefix and the counter (-2) both run over
    taken = [_take(tmp_path, PurePosixPath(f"/mnt/{disk}/logs/{log}")) for disk in ("a", "b", "c")]
    assert len({path.name for path in taken}) == 3
    assert all(len(path.name.encode()) <= 255 and path.name.endswith(".log") for path in taken), [p.name for p in taken]
