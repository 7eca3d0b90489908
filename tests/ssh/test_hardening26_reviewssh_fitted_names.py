"""The free name a collided fetch takes when the folder prefix or the counter runs past NAME_MAX
(engine.unclaimed_path, engine._fitted). Under LC_ALL=C (file-system encoding ASCII: a cron
job, a bare CI runner) local_name spells each non-ASCII character as the %XX of its UTF-8 bytes;
the fitted name was cut one character of that spelling at a time, so its kept start ended inside
a character ("...%E4%B8%A~hash.log"): a name whose %XX no longer reads back as the host's
folder. Each name must keep whole characters, stay apart from every other, and be the same in
the next run (a report links to it)."""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

import pytest

from spec_debug.runner.engine import local_name, unclaimed_path

FOLDER = "\u4e2d" * 70  # 210 UTF-8 bytes: 630 once spelled %XX
LOG = "eagle3-acceptance.log"


@pytest.fixture
def c_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "getfilesystemencoding", lambda: "ascii")


def _take(folder: Path, remote: str) -> Path:
    path = PurePosixPath(remote)
    local = unclaimed_path(folder / local_name(path.name), path)
    local.write_text(remote, encoding="utf-8")
    return local


def _start(name: str) -> str:
    return name.rsplit("~", 1)[0]


def test_a_cut_folder_prefix_keeps_whole_characters(tmp_path: Path, c_locale: None) -> None:
    _take(tmp_path, f"/a/{LOG}")
    second = _take(tmp_path, f"/scratch/{FOLDER}/{LOG}")
    assert len(second.name) <= 255 and second.name.endswith(".log"), second.name
    start = _start(second.name)
    assert start.startswith("%E4%B8%AD")
    unquote(start, errors="strict")  # was: UnicodeDecodeError on the cut "%E4%B8%A"
    assert len(start) % len("%E4%B8%AD") == 0, start[-12:]


def test_a_third_and_fourth_collision_are_distinct_whole_and_stable(tmp_path: Path, c_locale: None) -> None:
    # One long name from four disks' folders of one name: the folder prefix, then the counters
    # (-2, -3), each cut; the hash is over the whole candidate, so the cuts stay apart.
    log = "\u4e2d" * 80 + ".log"  # local_name already cuts it to 255
    remotes = [f"/mnt/{disk}/{FOLDER}/{log}" for disk in "abcd"]
    runs = []
    for run in ("one", "two"):
        (tmp_path / run).mkdir()
        runs.append([_take(tmp_path / run, remote).name for remote in remotes])
    assert runs[0] == runs[1]  # the next run's record names the same files
    assert len(set(runs[0])) == 4, runs[0]
    for name in runs[0]:
        assert len(name) <= 255 and name.endswith(".log"), name
        unquote(_start(name), errors="strict")
