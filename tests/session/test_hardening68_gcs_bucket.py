"""LiteLLM's GCS bucket logger writes each call's StandardLoggingPayload to the object
``<YYYY-MM-DD>/<response id>`` (``<YYYY-MM-DD>/failure-<hex>`` for a failed call), with no extension
(BerriAI/litellm ``litellm/integrations/gcs_bucket/gcs_bucket.py``, ``_generate_success_object_name``).
A bucket synced down was "no transcript files found": a folder scan read only known extensions."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path

from tests.session.test_hardening68_call_folder_order import CALLS, STARTS, _payload


def _gcs_bucket(root: Path) -> Path:
    day = root / "litellm-bucket" / "2025-12-05"
    day.mkdir(parents=True)
    for (messages, answer), start in zip(CALLS, STARTS):
        payload = _payload(f"litellm-{int(start)}", messages, answer, start)
        (day / payload["response"]["id"]).write_text(json.dumps(payload))  # chatcmpl-<n>, no extension
    return day


@pytest.mark.parametrize("level", ["day", "bucket"])
def test_a_synced_gcs_bucket_is_read_as_the_calls_of_one_log(tmp_path: Path, level: str) -> None:
    day = _gcs_bucket(tmp_path)
    doc = analyze_path(day if level == "day" else tmp_path).to_json()
    assert [(s["id"], s["events"]) for s in doc["sessions"]] == [("2025-12-05", 7)]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("ssh gpu07 nvidia-smi", 18), ("ssh gpu07 sudo reboot", None)]
    assert [(Path(c["file"]).name, c["timestamp"]) for c in doc["commands"]] == [
        ("chatcmpl-1764930080", "2025-12-05T10:21:22.000Z"), ("chatcmpl-1764930084", "2025-12-05T10:21:26.000Z")]


def test_files_without_extension_elsewhere_are_still_passed_by(tmp_path: Path) -> None:
    # the same record outside a day's folder, and other extension-less files in one, are no sessions
    other = tmp_path / "bin"
    other.mkdir()
    messages, answer = CALLS[0]
    (other / "chatcmpl-1").write_text(json.dumps(_payload("a", messages, answer, STARTS[0])))
    day = tmp_path / "2025-12-05"
    day.mkdir()
    (day / "run").write_text('#!/bin/sh\necho \'{"call_type": "x"}\'\n')
    (day / "blob").write_bytes(b"\x7fELF\x02\x01\x01" + b"\0" * 64)
    with pytest.raises(UsageError, match="no transcript files found"):
        analyze_path(tmp_path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_in_a_day_folder_is_not_opened(tmp_path: Path) -> None:
    # a named pipe with no extension in a day's folder: opening it to sniff would wait forever
    day = _gcs_bucket(tmp_path)
    fifo = day / "events"
    os.mkfifo(fifo)
    found: list = []
    worker = threading.Thread(target=lambda: found.append(analyze_path(day).to_json()), daemon=True)
    worker.start()
    worker.join(timeout=30)
    hung = worker.is_alive()
    if hung:  # let the blocked open go, so the thread ends
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(timeout=30)
    assert not hung
    assert [(s["id"], s["events"]) for s in found[0]["sessions"]] == [("2025-12-05", 7)]
