"""A run folder or its run.json given where a playbook goes.

On call, "run it again" is typed as `spec-debug run runs/<run-id> --host gpu01` (or `explain`
of the record): the folder said only "is a directory", and run.json, which is JSON and so YAML,
was read as a playbook with "unknown key 'host' (and 28 more problems)". The record names the
playbook it ran (record.py, PlaybookRef), so the message can give the command meant.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from spec_debug.errors import PlaybookError
from spec_debug.record import shell_word

# run.json starts with run_id, then playbook {name, path, sha256} (record.py, RunRecord's field
# order, written by store.py): its head is enough, however large the record.
_HEAD_BYTES = 4096
_PLAYBOOK_REF = re.compile(
    rb'"playbook"\s*:\s*\{\s*"name"\s*:\s*(?P<name>"(?:[^"\\]|\\.)*")\s*,\s*"path"\s*:\s*(?P<path>"(?:[^"\\]|\\.)*")')
_REPORT_NAMES = ("run.json", "report.md", "report.html")


def run_folder_error(candidate: Path, given: str, shipped_dir: Path) -> PlaybookError | None:
    """The error for a run folder, its run.json or its reports given as a playbook; else None."""
    if candidate.is_dir():
        folder, what = candidate, "a spec-debug run folder"
    elif candidate.name in _REPORT_NAMES:
        folder = candidate.parent
        what = "a spec-debug run record" if candidate.name == "run.json" else "the report of a spec-debug run"
    else:
        return None
    try:
        with open(folder / "run.json", "rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except OSError:
        return None
    return record_error(head, folder, given, shipped_dir, what)


def playbook_argument(name: str, path: str, shipped_dir: Path) -> str:
    """The playbook word of a command that runs a recorded playbook again: a shipped playbook is
    recorded by its installed path (site-packages, a checkout), which another machine or a new
    virtualenv lacks, while its name works anywhere; any other playbook by its path."""
    shipped = Path(path).parent == shipped_dir and Path(path).stem == name
    return name if shipped or not path else path


def record_error(head: bytes, record: Path, given: str, shipped_dir: Path,
                 what: str = "a spec-debug run record") -> PlaybookError | None:
    """The error for a run record's first bytes given as a playbook (None if they are not one).
    record is what `report` and `--retry-failed` take: the run folder or the record file."""
    found = _PLAYBOOK_REF.search(head)
    if not (head.lstrip().startswith(b"{") and b'"run_id"' in head and found):
        return None
    try:
        name, path = json.loads(found.group("name")), json.loads(found.group("path"))
    except ValueError:
        return None
    # shell_word: a Latin-1 folder's byte as $'\xe9', which a shell gives back; in single quotes
    # the pasted command named a folder that does not exist.
    playbook = shell_word(playbook_argument(str(name), str(path or ""), shipped_dir))
    run = shell_word(str(record))
    return PlaybookError(
        f"is {what} (playbook {name!r}), not a playbook",
        path=given,
        hint=f"run the playbook again: spec-debug run {playbook} --host HOST; only the hosts that failed: "
             f"spec-debug run {playbook} --retry-failed {run}; the report: spec-debug report {run}",
    )
