"""Crush's later releases store each message's parts zstd-compressed (``compressParts``, charmbracelet/
crush ``internal/message/parts_codec.go``: a zstd frame, told from the plain JSON of older rows by its
magic number). Read as JSON, every compressed message was broken: a session of no prompt and no
command. The frames here are made by the ``zstd`` command, as Crush's encoder makes them."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.formats import crush
from tests.session.test_hardening22_formats_crush import LAUNCH, _store

pytestmark = pytest.mark.skipif(shutil.which("zstd") is None, reason="the zstd command makes the frames")


def _zstd(data: str) -> bytes:
    return subprocess.run(["zstd", "-q", "-c"], input=data.encode(), capture_output=True, check=True).stdout


def _compress_rows(db, keep_plain: set[str], as_text: bool = False) -> None:
    conn = sqlite3.connect(db)
    # a Go string bound to the TEXT column keeps the frame's bytes as they are: CAST(blob AS TEXT)
    value = "CAST(? AS TEXT)" if as_text else "?"
    for ident, parts in conn.execute("SELECT id, parts FROM messages").fetchall():
        if ident not in keep_plain and parts.startswith("["):
            conn.execute(f"UPDATE messages SET parts = {value} WHERE id = ?", (_zstd(parts), ident))
    conn.commit()
    conn.close()


@pytest.mark.parametrize("as_text", [False, True])
def test_compressed_parts_give_the_same_session_as_plain_ones(tmp_path, as_text):
    plain = analyze_path(_store(tmp_path / "plain" / ".crush")).to_json()
    db = _store(tmp_path / "packed" / ".crush")
    _compress_rows(db, keep_plain={"m1"}, as_text=as_text)  # rows written before the upgrade stay plain JSON
    doc = analyze_path(db).to_json()
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [(LAUNCH, 1), ("nvidia-smi", 6)]
    assert [p["text"] for p in doc["prompts"]] == [p["text"] for p in plain["prompts"]]
    assert doc["sessions"][0]["broken_json"] == plain["sessions"][0]["broken_json"] == 1  # m6: "not json"
    assert doc["sessions"][0]["damaged"] == []


def test_a_damaged_frame_is_one_broken_message_the_others_still_read(tmp_path):
    db = _store(tmp_path / ".crush")
    _compress_rows(db, keep_plain=set())
    conn = sqlite3.connect(db)
    conn.execute("UPDATE messages SET parts = ? WHERE id = 'm4'", (b"\x28\xb5\x2f\xfd" + b"\x00" * 12,))
    conn.commit()
    conn.close()
    doc = analyze_path(db).to_json()
    assert [c["command"] for c in doc["commands"]] == [LAUNCH]  # m4 (nvidia-smi) is lost alone
    assert doc["sessions"][0]["broken_json"] == 2


def test_without_a_zstd_decoder_the_store_says_why_its_messages_are_missing(tmp_path, monkeypatch):
    db = _store(tmp_path / ".crush")
    _compress_rows(db, keep_plain={"m1"})
    try:
        from compression import zstd  # noqa: F401  # Python 3.14 decodes it without the command
        pytest.skip("this Python decodes zstd itself")
    except ImportError:
        pass
    monkeypatch.setattr(crush.shutil, "which", lambda name: None)
    doc = analyze_path(db).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["why is the draft never accepted on gpu-3?"]  # m1, plain
    assert any("zstd-compressed" in d and "apt install zstd" in d for d in doc["sessions"][0]["damaged"])
