"""A fetched file's local name under a controller locale that is not UTF-8 (LC_ALL=C with
PYTHONUTF8=0): engine.local_name spells each non-ASCII byte %XX, three bytes for one, so a
host's name of 29 CJK characters and '.log' (91 bytes in UTF-8, which the host holds at ease)
became 265 bytes, past Linux's NAME_MAX of 255: the copy's write failed as SD003 "File name
too long" and the log was lost. The spelled name is cut to fit, keeping its start, its
extension and a hash of the whole name. The real C-locale fetch over SFTP is
test_hardening25_ssh_non_ascii_fetch; the file-system encoding is stood in for here."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from spec_debug.runner.engine import local_name

CJK = "\u63a8\u7406\u6d4b\u8bd5"  # four CJK characters, 12 UTF-8 bytes


@pytest.fixture()
def c_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "getfilesystemencoding", lambda: "ascii")


def test_a_long_non_ascii_name_is_written(c_locale: None, tmp_path: Path) -> None:
    names = [CJK * 8 + "-a.log", CJK * 8 + "-b.log"]  # 102 UTF-8 bytes each, the same start
    spelled = [local_name(name) for name in names]
    for name, local in zip(names, spelled):
        assert len(local.encode("ascii")) <= 255, len(local)
        assert local.startswith("%E6%8E%A8%E7%90%86") and local.endswith(".log"), local
        (tmp_path / local).write_text(name, encoding="utf-8")  # was: OSError File name too long
    assert spelled[0] != spelled[1], "two long names sharing a start became one file"


def test_a_short_name_and_the_folders_keep_their_spelling(c_locale: None) -> None:
    assert local_name("r\u00e9sum\u00e9-\u4e2d.log") == "r%C3%A9sum%C3%A9-%E4%B8%AD.log"
    assert local_name("logs/" + CJK * 8 + ".log").startswith("logs/%E6%8E%A8")
    assert all(len(part) <= 255 for part in local_name(CJK * 30 + "/" + CJK * 30).split("/"))
    assert local_name("plain-" + "x" * 200 + ".log") == "plain-" + "x" * 200 + ".log"
