"""LiteLLM's bucket loggers file each call under the day it was made (``<YYYY-MM-DD>/<response id>``,
the day in UTC: BerriAI/litellm ``litellm/integrations/gcs_bucket/gcs_bucket.py``, ``_get_object_name``;
the S3 and Azure loggers the same way). A run that went over midnight was two sessions, one a day
folder, and the second day's first request resends the whole history: its commands, prompt and
errors were read again, each counted twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

from tests.session.test_hardening68_call_folder_order import CALLS, STARTS, _payload

MIDNIGHT = [1764979195.0, 1764979198.0, 1764979205.0]  # 2025-12-05 23:59:55, :58, 2025-12-06 00:00:05 UTC
_OTHER = {"role": "user", "content": "summarize yesterday's draft-model acceptance numbers"}


def _write(root: Path, day: str, payload: dict, suffix: str) -> None:
    folder = root / day
    folder.mkdir(parents=True, exist_ok=True)
    (folder / (payload["response"]["id"] + suffix)).write_text(json.dumps(payload))


@pytest.mark.parametrize("suffix", ["", ".json"])  # GCS objects have no extension; S3/Azure end .json
def test_a_run_over_midnight_is_one_session(tmp_path: Path, suffix: str) -> None:
    for (messages, answer), start, day in zip(CALLS, MIDNIGHT, ["2025-12-05", "2025-12-05", "2025-12-06"]):
        _write(tmp_path, day, _payload(f"c{int(start)}", messages, answer, start), suffix)
    doc = analyze_path(tmp_path).to_json()
    assert [(s["id"], s["events"]) for s in doc["sessions"]] == [("2025-12-05", 7)]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("ssh gpu07 nvidia-smi", 18), ("ssh gpu07 sudo reboot", None)]
    assert [p["text"] for p in doc["prompts"]] == ["accept length dropped on gpu07 after the upgrade"]


def test_another_days_other_conversation_stays_its_own_session(tmp_path: Path) -> None:
    for (messages, answer), start in zip(CALLS, STARTS):
        _write(tmp_path, "2025-12-05", _payload(f"c{int(start)}", messages, answer, start), "")
    other = _payload("d1", [CALLS[0][0][0], _OTHER], {"role": "assistant", "content": "Mean accept length 3.1."},
                     STARTS[0] + 86400)
    _write(tmp_path, "2025-12-06", other, "")
    doc = analyze_path(tmp_path).to_json()
    assert sorted((s["id"], s["events"]) for s in doc["sessions"]) == [("2025-12-05", 7), (other["response"]["id"], 3)]
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi", "ssh gpu07 sudo reboot"]
