"""The JSONL reader decodes with orjson and falls back to the stdlib for the lines orjson
refuses; either way a line gives the objects ``json.loads`` gives, or the same skip."""

from __future__ import annotations

import json

import pytest

from spec_debug.session import reader
from spec_debug.session.events import ReadStats
from spec_debug.session.json_text import json_text

# Lines the stdlib accepts and orjson refuses, then lines both refuse, then ordinary ones.
LINES = [
    b'{"text": "lone \\ud800 surrogate"}\n',
    b'{"value": NaN, "big": Infinity}\n',
    b'{"text": "\xff\xfe not UTF-8"}\n',
    b'{"cut": "tru\n',
    b'[1, 2, 3]\n',
    b'"a string"\n',
    b'\n',
    b'{"ok": [1, 2.5, "\xc3\xa9", null, true], "nested": {"a": {"b": []}}}\n',
    b'  {"leading": "space"}  \n',
]


def _read(path, monkeypatch, fast: bool):
    if not fast:
        monkeypatch.setattr(reader, "_fast_loads", None)
    stats = ReadStats()
    got = list(reader.iter_json_records(path, stats))
    return got, stats


def test_fast_and_stdlib_paths_agree_line_by_line(tmp_path, monkeypatch):
    path = tmp_path / "edge.jsonl"
    path.write_bytes(b"".join(LINES))
    fast, fast_stats = _read(path, monkeypatch, fast=True)
    slow, slow_stats = _read(path, monkeypatch, fast=False)
    # NaN != NaN, so compare the JSON texts of what was read.
    assert json.dumps(fast) == json.dumps(slow)
    assert fast_stats == slow_stats
    # What each line became: the three the stdlib accepts are kept, with their values.
    assert [index for index, _, _ in fast] == [0, 1, 2, 6, 7]
    assert fast[0][2]["text"] == "lone \ufffd surrogate"
    assert fast[2][2]["text"] == "ÿþ not UTF-8"  # each stray byte as cp1252 reads it
    assert fast[3][2]["ok"] == [1, 2.5, "é", None, True]
    assert (fast_stats.broken_json, fast_stats.non_object, fast_stats.records) == (1, 2, 8)


def test_an_integer_past_64_bits_is_kept_as_a_number(tmp_path):
    # orjson reads it as a float, the stdlib exactly; no field the analysis reads (exit codes,
    # token counts, line numbers) comes near 2**64, so the line only has to survive.
    path = tmp_path / "big.jsonl"
    path.write_text('{"id": 123456789012345678901234567890, "type": "x"}\n')
    stats = ReadStats()
    [(_, _, obj)] = reader.iter_json_records(path, stats)
    assert obj["id"] == pytest.approx(1.2345678901234568e29) and obj["type"] == "x"
    assert stats.lines_skipped == 0


def test_the_orjson_path_is_the_one_taken(tmp_path, monkeypatch):
    pytest.importorskip("orjson")
    path = tmp_path / "plain.jsonl"
    path.write_text('{"a": 1}\n{"b": 2}\n')
    seen = []
    real = reader._fast_loads

    def counting(raw):
        seen.append(raw)
        return real(raw)

    monkeypatch.setattr(reader, "_fast_loads", counting)
    assert [obj for _, _, obj in reader.iter_json_records(path, ReadStats())] == [{"a": 1}, {"b": 2}]
    assert len(seen) == 2


def test_json_text_writes_what_the_stdlib_reads_back():
    doc = {"metrics": [{"value": 54.8, "unit": "tok/s", "context": "é ✓"}], "big": 2 ** 70, 3: "int key",
           "empty": [], "none": None}
    text = json_text(doc)
    assert text.endswith("\n") and "é ✓" in text  # UTF-8 kept, not \u-escaped
    back = json.loads(text)
    assert back["metrics"] == doc["metrics"] and back["big"] == 2 ** 70 and back["3"] == "int key"


def test_records_written_as_dataclasses_match_the_plain_contract(monkeypatch):
    from pathlib import Path

    from spec_debug.session import analyze_path, json_text as json_text_module

    data = Path(__file__).resolve().parent.parent / "data" / "transcripts"
    analysis = analyze_path(data)
    plain = json_text(analysis.to_json())
    assert json.loads(plain)["commands"], "the samples have commands"
    assert json_text(analysis.to_json(plain=False)) == plain
    monkeypatch.setattr(json_text_module, "orjson", None)  # the stdlib writer, for a machine without orjson
    assert json.loads(json_text_module.json_text(analysis.to_json(plain=False))) == json.loads(plain)


def test_a_json_array_file_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "chat.json"
    messages = [{"role": "user", "content": "why is the draft slow?"}, {"role": "assistant", "content": "checking"}]
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(messages).encode())
    stats = ReadStats()
    got = [obj for _, _, obj in reader.iter_json_array(path, stats)]
    assert got == messages and stats.broken_json == 0
