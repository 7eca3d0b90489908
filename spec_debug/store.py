"""The runs/ layout: run ids, atomic run.json writes, artifacts.

runs/<run-id>/run.json        the record, rewritten atomically after every step
runs/<run-id>/artifacts/...   full output streams that did not fit the record, fetched files
runs/<run-id>/report.md|html  rendered views of run.json
"""

from __future__ import annotations

import json
import os
import secrets
import tempfile
import threading
from datetime import datetime, timezone
from pathlib import Path

from spec_debug.errors import UsageError
from spec_debug.record import RunRecord

RUN_JSON = "run.json"


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_run_id(playbook_name: str, now: datetime | None = None) -> str:
    """Sortable by time (UTC, to the millisecond), unique under concurrent runs (random tail)."""
    now = now or datetime.now(timezone.utc)
    safe_name = "".join(c if c.isalnum() or c in "-_" else "-" for c in playbook_name)[:40]
    return f"{now:%Y%m%dT%H%M%S}{now.microsecond // 1000:03d}Z-{safe_name}-{secrets.token_hex(3)}"


class RunStore:
    """Owns one run directory. Thread-safe: host workers save concurrently."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.artifacts_dir = run_dir / "artifacts"
        self._lock = threading.Lock()

    @classmethod
    def create(cls, parent: Path, playbook_name: str) -> "RunStore":
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot create the runs directory {parent}: {exc.strerror}") from None
        for _ in range(20):
            run_dir = parent / new_run_id(playbook_name)
            try:
                run_dir.mkdir()  # exclusive: a collision just draws another id
            except FileExistsError:
                continue
            return cls(run_dir)
        raise UsageError(f"could not allocate a run directory under {parent}")

    def artifact_path(self, *parts: str) -> Path:
        return self.artifacts_dir.joinpath(*parts)

    def save(self, record: RunRecord) -> None:
        """Atomically replace run.json: readers see the old or the new record, never half."""
        self.save_json(record.model_dump_json(indent=2))

    def save_json(self, payload: str) -> None:
        with self._lock:
            write_atomic(self.run_dir / RUN_JSON, payload)


def write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_record(run_dir_or_file: Path) -> RunRecord:
    path = run_dir_or_file / RUN_JSON if run_dir_or_file.is_dir() else run_dir_or_file
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"no run record at {path}", hint="pass a runs/<run-id> directory or its run.json") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}:{exc.lineno}:{exc.colno}: run.json is not valid JSON: {exc.msg}") from None
    return RunRecord.model_validate(data)
