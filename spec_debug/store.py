"""The runs/ layout: run ids, atomic run.json writes, artifacts.

runs/<run-id>/run.json        the record, rewritten atomically after every step
runs/<run-id>/artifacts/...   full output streams that did not fit the record, fetched files
runs/<run-id>/report.md|html  rendered views of run.json

A record must survive the controller dying at any moment (Ctrl-C, SIGKILL, a full disk): every
write goes to a temporary file in the same folder that is then renamed over the old one (rename
is atomic on POSIX), so run.json is always the previous or the next complete record. A write
that fails leaves the previous record in place and raises RecordWriteError. No fsync: it costs
~8 ms per write on ext4 (run.json is rewritten after every step) and only matters if the
machine itself loses power; a killed process loses nothing that rename already published.
"""

from __future__ import annotations

import codecs
import errno
import json
import os
import re
import select
import shlex
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from spec_debug import __version__
from spec_debug.errors import SpecDebugError, UsageError

if TYPE_CHECKING:
    from spec_debug.record import RunRecord
# The record models (pydantic, ~150 ms to import) are imported where a record is read: the CLI
# imports this module for write_atomic in every command, most of which never read a record.

RUN_JSON = "run.json"


class RecordWriteError(SpecDebugError):
    """run.json or a report could not be written (disk full, read-only, permissions).

    Exit 3 like an aborted run: the run could not be recorded to the end."""

    exit_code = 3

    def __init__(self, message: str, *, hint: str | None = None, out_of_space: bool = False) -> None:
        super().__init__(message, hint=hint)
        self.out_of_space = out_of_space
        """The disk or the quota is full: a smaller write may still fit."""


_OUT_OF_SPACE = (errno.ENOSPC, errno.EDQUOT)


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


# Kernel file systems that take no file of the user's: `-o /proc/x.md` fails with ENOENT (the
# hint was "the folder does not exist: create it first", of a /proc that is there), /sys with
# EACCES even for root. Named by their type in /proc/self/mounts (proc(5), sysfs(5)).
_KERNEL_FILE_SYSTEMS = frozenset({"proc", "sysfs", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs", "configfs",
                                  "pstore", "bpf", "efivarfs", "binfmt_misc", "fusectl"})


def kernel_file_system(where: Path) -> tuple[str, str] | None:
    """(mount point, type) when where lies on a kernel file system, else None (or not Linux)."""
    mount = _mount_of(where)
    return mount if mount is not None and mount[1] in _KERNEL_FILE_SYSTEMS else None


def device_folder(where: Path) -> str | None:
    """Why no file of the user's goes at where, when where lies in /dev, else None. Unlike /proc
    and /sys, /dev (devtmpfs, or a tmpfs mounted there in a container) takes a file from root, so
    `-o /dev/x.md` or `run --out /dev/runs` wrote into memory nobody looks in and exit 0. A device
    or a pipe that is there is written in place without asking this (-o /dev/stdout, /dev/null,
    /dev/fd/N); /dev/shm, a mount of its own, is left alone."""
    mount = _mount_of(where)
    if mount is None or not (mount[1] == "devtmpfs" or mount[0] == "/dev"):
        return None
    return f"{mount[0]} holds the system's device files ({mount[1]}), not files of yours"


def _mount_of(where: Path) -> tuple[str, str] | None:
    """(mount point, type) of the mount where's nearest existing folder lies on; None when the
    mount table cannot be read (not Linux)."""
    try:
        existing = next(p for p in [where, *where.parents] if p.exists()).resolve()
        with open("/proc/self/mounts", encoding="utf-8", errors="replace") as handle:
            mounts = [line.split()[1:3] for line in handle if len(line.split()) >= 3]
    except (OSError, StopIteration, ValueError):
        return None
    best: tuple[str, str] | None = None
    for point, kind in mounts:
        point = point.replace("\\040", " ").replace("\\011", "\t")  # mounts escapes blanks (fstab(5))
        inside = existing == Path(point) or Path(point) in existing.parents
        if inside and (best is None or len(point) > len(best[0])):
            best = (point, kind)
    return best


DISK_HINT = "write to a folder on a disk (for runs: --out DIR)"


def _failed_at(exc: OSError, where: Path) -> tuple[str, str]:
    """(why, hint) of a write at where that failed: the kernel file system it lies on, where
    that is the cause (one read of the mount table for both), else the error's own."""
    kernel = kernel_file_system(where)
    if kernel is None:
        return _why(exc), _write_hint(exc)
    return f"{kernel[0]} is the kernel's {kernel[1]} file system, which holds no files of yours ({_why(exc)})", DISK_HINT


def _write_hint(exc: OSError) -> str:
    if exc.errno in (*_OUT_OF_SPACE, errno.EFBIG):
        # As the hints below: --out is an option of run and demo only; `schema -o`, `explain -o`
        # and `report -o` name a file (they sent the user looking for an option they lack).
        return "free some space there, or write to another disk (for runs: --out DIR)"
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "write to a folder you can write to (for runs: --out DIR)"
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return "the folder does not exist: create it first"
    return "write to another folder (for runs: --out DIR)"


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_run_id(playbook_name: str, now: datetime | None = None) -> str:
    """Sortable by time (UTC, to the millisecond), unique under concurrent runs (random tail)."""
    now = now or datetime.now(timezone.utc)
    safe_name = "".join(c if c.isalnum() or c in "-_" else "-" for c in playbook_name)[:40]
    # 32 random bits: among 2,000 runs started in the same millisecond two ids collide with
    # probability ~5e-4 (24 bits made that 11%); create() draws again on the rare collision.
    import secrets  # here: hashlib's OpenSSL load is ~15 ms of every command that never starts a run

    return f"{now:%Y%m%dT%H%M%S}{now.microsecond // 1000:03d}Z-{safe_name}-{secrets.token_hex(4)}"


class RunStore:
    """Owns one run directory. Thread-safe: host workers save concurrently."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.artifacts_dir = run_dir / "artifacts"
        self._lock = threading.Lock()

    @classmethod
    def create(cls, parent: Path, playbook_name: str) -> "RunStore":
        in_dev = device_folder(parent)
        if in_dev is not None:
            raise UsageError(f"cannot create the runs directory {parent}: {in_dev}", hint=DISK_HINT)
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            # `--out report.md` or `-o /dev/null` (the habit of -o naming an output file): mkdir
            # says only "File exists" (or "Not a directory" for a folder below the file).
            blocks = _what_blocks(parent)
            hint = ("make the folder it points to (or mount its disk), or pass --out ANOTHER_FOLDER" if "is a link to" in blocks
                    else "--out names the folder that holds the run folders (default: runs)")
            raise UsageError(f"cannot create the runs directory {parent}: {blocks}", hint=hint) from None
        except OSError as exc:
            why, hint = _failed_at(exc, parent)
            raise UsageError(f"cannot create the runs directory {parent}: {why}", hint=hint) from None
        for _ in range(20):
            run_dir = parent / new_run_id(playbook_name)
            try:
                run_dir.mkdir()  # exclusive: a collision just draws another id
                return cls(run_dir)
            except FileExistsError:
                continue
            except OSError as exc:  # read-only, no permission, disk full
                why, hint = _failed_at(exc, parent)
                raise UsageError(f"cannot create a run folder in {parent}: {why}", hint=hint) from None
            except BaseException:
                # Ctrl-C or SIGTERM (the CLI's handler raises) just as the folder was made: the
                # caller never learns its name, so it cannot remove it; an empty run folder
                # would be what `ls runs | tail -1` picks as the latest run.
                _remove_if_empty(run_dir)
                raise
        raise UsageError(f"could not allocate a run directory under {parent}")

    def discard_if_empty(self) -> None:
        """Remove the run folder if nothing was written to it: a run refused before its first
        record (an unknown --var) must not leave a folder that `ls runs | tail -1` then picks
        as the latest run, with no run.json in it."""
        _remove_if_empty(self.run_dir)

    def artifact_path(self, *parts: str) -> Path:
        return self.artifacts_dir.joinpath(*parts)

    def save(self, record: RunRecord) -> None:
        """Atomically replace run.json: readers see the old or the new record, never half."""
        self.save_json(record.model_dump_json(indent=2))

    def save_json(self, payload: str) -> None:
        with self._lock:
            try:
                write_atomic(self.run_dir / RUN_JSON, payload)
            except RecordWriteError as exc:
                if self.run_dir.is_dir():
                    raise
                # A cleanup of runs/ (or an rm -r) mid-run: "No such file or directory" with the
                # hint "create it first" sent the user to mkdir a folder whose run had ended.
                raise RecordWriteError(
                    f"the run folder {self.run_dir} was removed while the run went on: nothing more can be recorded",
                    hint="something removed it (a cleanup of the runs folder, rm -r): run again, with --out DIR "
                         "on a folder nothing cleans while a run is going", out_of_space=exc.out_of_space) from None

    def save_cut(self, payload: str, why: str) -> None:
        """Write run.json with each step's output cut to its first and last lines
        (compact_record), for the last record of a run stopped by a full disk: its statuses and
        findings fit in a few KiB where the whole record did not. Raises RecordWriteError."""
        self.save_json(compact_record(payload, why))


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass  # something was written: keep it


COMPACT_OUTPUT_CHARS = 2048


def compact_record(payload: str, why: str) -> str:
    """The run record payload with every step's stdout and stderr cut to its first and last
    lines, marked as runner/output.py marks a cut (readers already look for that marker)."""
    record = json.loads(payload)
    keep_head, keep_tail = COMPACT_OUTPUT_CHARS // 4, COMPACT_OUTPUT_CHARS * 3 // 4  # the end holds the traceback
    for step in record.get("steps", []):
        for stream in ("stdout", "stderr"):
            text = step.get(stream) or ""
            if len(text) <= COMPACT_OUTPUT_CHARS:
                continue
            middle = text[keep_head:-keep_tail]
            # Bytes an earlier cut (--capture-limit) dropped count too; its marker does not.
            skipped = len(middle.encode("utf-8", "surrogatepass")) + sum(
                int(m.group(1)) - len(m.group(0).encode()) for m in _CUT_MARKER.finditer(middle))
            step[stream] = f"{text[:keep_head]}\n... [{skipped} bytes truncated; cut so that run.json fits: {why}] ...\n{text[-keep_tail:]}"
            step["truncated"] = True
    return json.dumps(record, indent=2, ensure_ascii=False)


_CUT_MARKER = re.compile(r"\n\.\.\. \[(\d+) bytes truncated; [^\]\n]*\] \.\.\.\n")
"""runner/output.py's TRUNCATION_MARKER (the store does not import the runner)."""


def umask_without_setting() -> int | None:
    """The process's umask from /proc/self/status (Linux), None where it is not there: os.umask
    can only be read by setting it, which races with threads creating files."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return None


def _process_umask() -> int:
    """The umask, read once at import (before host workers write files from threads)."""
    read = umask_without_setting()
    if read is not None:
        return read
    current = os.umask(0o022)
    os.umask(current)
    return current


_UMASK = _process_umask()


def _mode_for(path: Path) -> int:
    """What a plain open() would give a new file, or the mode the file being replaced has:
    mkstemp's 0600 would hide a report written for the team (a shared runs/ folder, a docroot)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~_UMASK


def _show_surrogates(error: UnicodeError) -> tuple[str, int]:
    """A report of a run whose vars hold a byte that is not UTF-8 (PEP 383 surrogates from
    argv) is written with that byte shown, as record.py writes run.json, not refused half-way
    with a UnicodeEncodeError traceback."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    from spec_debug.record import shown_surrogate

    return "".join(shown_surrogate(char) for char in error.object[error.start:error.end]), error.end


_SHOW_SURROGATES = "spec_debug.show_surrogates"
codecs.register_error(_SHOW_SURROGATES, _show_surrogates)


def write_atomic(path: Path, text: str, *, example: str = "report.md") -> None:
    """Replace path with text, all or nothing. Raises RecordWriteError (the old file stays).
    `example`: the file name the hint suggests when path is a folder.

    A target that is not a regular file is written in place: -o /dev/stdout, a FIFO, or bash's
    process substitution (-o >(gh issue comment 7 --body-file -), a /dev/fd/N pipe). Renaming
    over it would replace the device node or the pipe's name with a file no reader sees.
    A link to a file is written through, as the shell's `>` does (see _through_link)."""
    path = _through_link(path)
    if path.is_dir():
        raise RecordWriteError(f"cannot write {path}: it is a folder", hint=f"name a file, e.g. {path / example}")
    if path.exists() and not path.is_file():
        try:
            if stat.S_ISFIFO(path.stat().st_mode):
                _write_fifo(path, text.encode("utf-8", errors=_SHOW_SURROGATES))
                return
            with open(path, "w", encoding="utf-8", errors=_SHOW_SURROGATES) as handle:
                handle.write(text)
        except OSError as exc:
            # a pipe or device written in place (/dev/fd/N is /proc/self/fd/N): its own error
            raise RecordWriteError(f"cannot write {path}: {_why(exc)}", hint=_write_hint(exc)) from None
        return
    in_dev = None if path.exists() else device_folder(path.parent)  # a new file: run.json is rewritten often
    if in_dev is not None:
        raise RecordWriteError(f"cannot write {path}: {in_dev}", hint=DISK_HINT)
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8", errors=_SHOW_SURROGATES) as handle:
            os.fchmod(handle.fileno(), _mode_for(path))
            handle.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        _discard(tmp)
        kept = " (the previous version is kept)" if path.exists() else ""
        why, hint = _failed_at(exc, path)
        raise RecordWriteError(f"cannot write {path}: {why}{kept}", hint=hint,
                               out_of_space=exc.errno in _OUT_OF_SPACE) from None
    except BaseException:  # Ctrl-C mid-write: no half file, no stray temp file
        _discard(tmp)
        raise


def _through_link(path: Path) -> Path:
    """The file a symbolic link leads to, where path is one to a file: `distill -o current.yaml`,
    current.yaml a link to playbooks/kimi_v3.yaml, renamed a new file over the link, so the link
    was gone and kimi_v3.yaml, the file its author opens, kept the old playbook. The target is
    replaced all at once instead, and the link stays. A link to nothing is replaced as before."""
    if not path.is_symlink():
        return path
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):  # a link to nothing, or a loop of links
        return path
    return target if target.is_file() else path


_FIFO_WAIT_S = 0.1
"""How long one try to open or fill a FIFO waits before Python checks for signals again."""


def _write_fifo(path: Path, data: bytes) -> None:
    """data into the FIFO at path, waiting for its reader (`--junit` a named pipe a CI step reads)
    in short non-blocking tries. A plain open() blocks in the kernel until the reader comes: a
    SIGTERM handled just before it (or by another thread) interrupted no system call, so its
    handler's exception waited there too and the CLI hung, run.json complete, until kill -9.
    Between tries the interpreter runs the signal handlers (time.sleep and select check them)."""
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            break
        except OSError as exc:
            if exc.errno != errno.ENXIO:  # ENXIO: no reader yet (fifo(7))
                raise
        time.sleep(_FIFO_WAIT_S)
    try:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:  # the pipe is full: the reader is behind
                select.select([], [fd], [], _FIFO_WAIT_S)
    finally:
        os.close(fd)


def write_output(path: Path, text: str, *, example: str = "report.md") -> None:
    """Write a file the user named with -o (a report, a postmortem, a playbook), creating its
    folder; every failure is one line. `example`: the file name the hint suggests when -o names
    a folder (`schema -o schemas/` was told "e.g. schemas/report.md")."""
    in_dev = None if path.parent.exists() else device_folder(path.parent)
    if in_dev is not None:
        raise RecordWriteError(f"cannot create the folder {path.parent}: {in_dev}", hint=DISK_HINT)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        in_the_way = _file_in_the_way(path)
        if in_the_way is not None:
            # `-o notes.md/walkthrough.md`: mkdir says "File exists", as if the folder were there.
            raise RecordWriteError(f"cannot create the folder {path.parent}: {in_the_way} is a file, not a folder",
                                   hint=f"name a file in a folder, e.g. -o {path.name}") from None
        why, hint = _failed_at(exc, path.parent)
        raise RecordWriteError(f"cannot create the folder {path.parent}: {why}", hint=hint) from None
    _refuse_read_only(path)
    write_atomic(path, text, example=example)


def _on_read_only_mount(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # AttributeError: no statvfs (Windows)
        return False


def _refuse_read_only(path: Path) -> None:
    """-o naming a file made read-only (`chmod a-w postmortem.md`, the copy signed off): the
    shell's `>` refuses it, but write_atomic renames a new file over it, which its mode does not
    stop, so the kept copy was replaced without a word. Refused; a file its owner may write
    (the mode has a write bit and this user may use it) is replaced as before."""
    try:
        info = path.stat()
    except OSError:
        return  # not there yet (or not ours to look at: write_atomic says why)
    if not stat.S_ISREG(info.st_mode) or _on_read_only_mount(path):
        return  # a device or a FIFO is written in place; a read-only mount's error names the mount
    if not info.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise RecordWriteError(f"cannot write {path}: the file is read-only (mode {stat.S_IMODE(info.st_mode):04o}); it is kept",
                               hint=f"write to another file, or make it writable first: chmod u+w {path}")


def refuse_overwriting(inputs: Iterable[Path], output: Path, what: str, example: str, doing: str = "read") -> None:
    """-o naming the very file the command reads (`report RUN -o RUN/run.json`, `analyze s.jsonl
    -o s.jsonl`, a completion that kept the input's suffix) would replace the only copy of a run
    record or a transcript with what was made from it; refused before anything is written."""
    for source in inputs:
        try:
            same = os.path.samefile(source, output)
        except (OSError, ValueError):  # the output does not exist yet, or the input is no file
            continue
        if same:
            raise UsageError(f"-o {output} is {what} being {doing}: writing there would replace it",
                             hint=f"write beside it, e.g. -o {output.with_name(example)}")


def _what_blocks(folder: Path) -> str:
    """Why mkdir -p of folder met "File exists": a file on its path, or a link to nothing (`runs`
    left pointing at an unmounted scratch disk was called "a file, not a folder", and the user
    looked for a file that is not there)."""
    for part in [folder, *folder.parents]:
        if part.is_symlink() and not part.exists():
            return f"{part} is a link to {os.readlink(part)}, which does not exist"
        if part.exists() and not part.is_dir():
            return f"{part} is a file, not a folder"
    return f"{folder} is a file, not a folder"


def _file_in_the_way(path: Path) -> Path | None:
    """The nearest folder of path that exists, when it is not a folder."""
    for parent in path.parents:
        try:
            if parent.exists():
                return None if parent.is_dir() else parent
        except OSError:
            return None
    return None


def _discard(tmp: str | None) -> None:
    if tmp is not None:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _warn_on_stderr(message: str) -> None:
    sys.stderr.write(f"warning: {message}\n")


def load_record(run_dir_or_file: Path, warn: Callable[[str], None] = _warn_on_stderr,
                pass_as: str = "spec-debug report") -> RunRecord:
    """Read run.json. Anything wrong with it is one UsageError line naming the file; what a
    newer spec-debug wrote that this one does not know is one warning (record.reading_notes).
    pass_as: how the caller takes a run folder, for the hint that names the latest run in a
    folder of runs (`--retry-failed` for `spec-debug run`)."""
    path = _run_id_under_runs(run_dir_or_file)
    try:
        if path.is_dir():
            path = path / RUN_JSON
        elif path.suffix.lower() in _RENDERED and (path.parent / RUN_JSON).is_file():
            # `report runs/<id>/report.html`: the rendering sits beside its record
            path = path.parent / RUN_JSON
        if path.exists() and not path.is_file():  # a FIFO or /dev/zero would block or never end
            raise UsageError(f"{path} is not a regular file", hint="pass a runs/<run-id> directory or its run.json")
        raw = path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"no run record at {path}", hint=_packed_beside_hint(path) or _unwritten_run_hint(path.parent)
                         or _latest_run_hint(run_dir_or_file, pass_as)) from None
    except OSError as exc:
        shown = str(path) if len(str(path)) <= 200 else str(path)[:197] + "..."
        raise UsageError(f"cannot read {shown}: {_why(exc)}") from None
    if not raw.strip():
        raise UsageError(f"{path}: run.json is empty", hint="the run was stopped before its first write; run it again") from None
    _refuse_zero_filled(path, raw)
    _refuse_packed(path, raw)
    try:
        # utf-8-sig: a record saved again by a Windows editor starts with a BOM, which
        # json.loads refuses ("Unexpected UTF-8 BOM").
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: run.json is not UTF-8 text (byte {exc.start})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if path.name != RUN_JSON and text.lstrip()[:1] not in ("{", "["):
            # a playbook, a log or a rendered report given in its place: no JSON was meant
            raise UsageError(f"{path} is not a run record (run.json)",
                             hint="pass a runs/<run-id> directory or its run.json") from None
        # Cut inside a string, json reports where the string started: it never closes, so the
        # file ends inside it.
        # Cut inside a \u escape (`\u001b`, the ESC of every colored log line a step printed),
        # json says "Invalid \uXXXX escape" a few characters before the end.
        truncated = (exc.pos >= len(text.rstrip()) - 1 or exc.msg.startswith("Unterminated string")
                     or exc.msg.startswith("Invalid \\uXXXX escape") and exc.pos >= len(text) - 6)
        raise UsageError(
            f"{path}:{exc.lineno}:{exc.colno}: run.json is not valid JSON: {exc.msg}",
            hint="the file ends early: it was cut off (copied while written, or a full disk)" if truncated else None,
        ) from None
    except RecursionError:
        raise UsageError(f"{path}: run.json nests too deeply to be a run record") from None
    record = parse_record(data, str(path))
    for note in record.reading_notes:
        warn(f"{path}: {note}")
    return record


def _refuse_zero_filled(path: Path, raw: bytes) -> None:
    """NUL bytes where the record's text should be: the size reached the disk, the data did
    not (XFS and ext4 without fsync, after a power loss or a kernel crash; the module doc says
    why there is no fsync). json said only 'Expecting value' at 1:1, as if the file were text."""
    first_nul = raw.find(b"\0")
    if first_nul < 0 or raw[first_nul:].strip(b"\0"):
        return  # NULs with data after them are some other file (a PNG): not what a lost write leaves
    where = "is all NUL bytes" if not raw.strip(b"\0") else f"holds NUL bytes from byte {first_nul} on"
    raise UsageError(f"{path}: run.json {where}: the machine stopped (power loss or crash) before the record "
                     "reached the disk",
                     hint=f"the record is lost; the steps' output may remain under {path.parent / 'artifacts'}; "
                          "run the playbook again")


# Magic numbers: RFC 1952 2.3.1 (gzip), the xz file format 2.1.1.1, bzip2's 'BZh' + block size,
# RFC 8878 3.1.1 (zstd). None can start a JSON text (RFC 8259 2: whitespace, then a value).
_COMPRESSED = ((b"\x1f\x8b", "gzip", ".gz", "gunzip"), (b"\xfd7zXZ\x00", "xz", ".xz", "unxz"),
               (b"\x28\xb5\x2f\xfd", "zstd", ".zst", "unzstd"))
_BZIP2 = (b"BZh", "bzip2", ".bz2", "bunzip2")  # then a block-size digit


def _packed_beside_hint(path: Path) -> str | None:
    """`gzip runs/*/run.json` leaves run.json.gz where run.json was: say so, with its unpacker."""
    for *_, suffix, tool in (*_COMPRESSED, _BZIP2):
        packed = path.with_name(path.name + suffix)
        try:
            if packed.is_file():
                return f"{packed.name} is there, compressed: unpack it and pass the folder again: {tool} -k {shlex.quote(str(packed))}"
        except OSError:
            return None
    return None


def _refuse_packed(path: Path, raw: bytes) -> None:
    """A record kept compressed (`gzip runs/*/run.json`, a CI artifact downloaded as a .zip):
    the decode said only "not UTF-8 text (byte 1)"."""
    packed = packed_file(path, raw, "the run folder or run.json in it")
    if packed is not None:
        raise UsageError(f"{path}: run.json is {packed[0]}", hint=packed[1])


def packed_file(path: Path, raw: bytes, inside: str) -> tuple[str, str] | None:
    """(what it is, how to unpack it) for a compressed file or a zip archive, by its magic
    number (above, and PKWARE APPNOTE 4.3.7 for a zip's local file header); None for others.
    inside: what to pass from a zip once unpacked."""
    shown = shlex.quote(str(path))  # a browser's download is named `run (1).json.gz`
    packed = next(((kind, suffix, tool) for magic, kind, suffix, tool in _COMPRESSED if raw.startswith(magic)), None)
    if packed is None and raw.startswith(_BZIP2[0]) and raw[3:4].isdigit():
        packed = _BZIP2[1:]
    if packed is not None:
        kind, suffix, tool = packed
        if path.name.endswith(suffix):
            return f"{kind}-compressed", f"unpack it and pass the result: {tool} -k {shown}"
        # gunzip, unxz, bunzip2 and unzstd refuse a name without their suffix ("unknown suffix").
        renamed = shlex.quote(f"{path}{suffix}")
        return f"{kind}-compressed", f"unpack it in place and pass it again: mv {shown} {renamed} && {tool} {renamed}"
    if raw.startswith(b"PK\x03\x04"):
        return "a zip archive", f"unpack it and pass {inside}: unzip {shown}"
    return None


_RENDERED = frozenset({".md", ".html", ".htm", ".xml"})
"""What a run folder holds beside run.json: its reports and JUnit XML."""


# new_run_id's shape: UTC start time to the millisecond, the playbook's name, a random tail.
_RUN_ID = re.compile(r"\d{8}T\d{9}Z-[\w-]*-[0-9a-f]{8}")

# Where `spec-debug run` puts run folders unless -o says otherwise (cli.py's --out default).
_DEFAULT_RUNS = Path("runs")


def _run_id_under_runs(given: Path) -> Path:
    """A bare run id (`spec-debug report 20261201T...-perf_regression-1b734c45`, as every
    report's footer says to re-render it) means runs/<run-id> when no file of that name is
    here: it was "no run record at <id>"."""
    try:
        if len(given.parts) != 1 or given.name in (".", "..") or given.exists():
            return given
        under_runs = _DEFAULT_RUNS / given
        return under_runs if under_runs.is_dir() else given
    except OSError:
        return given  # a name too long: read as given, which says why


def _unwritten_run_hint(folder: Path) -> str | None:
    """A run folder whose run.json never appeared: the controller was killed before its first
    rename (write_atomic leaves at most its .run.json.*.tmp), or the folder was copied while
    the run was starting. "pass a runs/<run-id> directory" was wrong advice: it is one. Killed
    right after its mkdir, the folder holds nothing at all: its run id's name says what it is."""
    try:
        partial = sorted(p.name for p in folder.glob(f".{RUN_JSON}.*.tmp"))
        started = (bool(partial) or (folder / "artifacts").is_dir()
                   or (folder.is_dir() and _run_id_of(folder) is not None))
    except OSError:
        return None
    if not started:
        return None
    left = f" (only the unfinished {partial[0]} is there)" if partial else ""
    return f"this run folder has no {RUN_JSON}: the run was stopped before its first record was written{left}; run the playbook again"


def _run_id_of(folder: Path) -> str | None:
    """The run id a run folder is named by, or, for a symlink named by hand, its target's."""
    if _RUN_ID.fullmatch(folder.name):
        return folder.name
    if folder.is_symlink():
        target = folder.resolve().name
        return target if _RUN_ID.fullmatch(target) else None
    return None


def _latest_run_hint(given: Path, pass_as: str = "spec-debug report") -> str:
    """`spec-debug report runs` (the parent folder, not a run): name the newest run in it. Run
    ids start with their UTC start time, so the last name in sort order is the latest."""
    try:
        records = list(given.glob(f"*/{RUN_JSON}")) if given.is_dir() else []
        # A folder named by hand beside the runs (`cp -r runs/<id> runs/before-fix`) sorts after
        # every run id ('b' > '2') and was named the latest: the latest is the last run id, and
        # the newest record written only where no folder has a run id's name.
        # A link named by hand (`ln -s <id> runs/latest`) is the run it points to, dated by its id.
        ours = [(run_id, run_id == p.parent.name, p.parent.name) for p in records
                if (run_id := _run_id_of(p.parent)) is not None]
        if ours or not records:
            latest = max(ours)[2] if ours else None
        else:
            latest = max(records, key=lambda p: p.stat().st_mtime).parent.name
    except OSError:
        records, latest = [], None
    if latest is not None:
        return f"{given} holds {len(records)} run(s); the latest: {pass_as} {given / latest}"
    if len(given.parts) == 1 and _RUN_ID.fullmatch(given.name):
        # A bare id is looked up under ./runs only; a run written with -o DIR is elsewhere
        # (its report's footer names that folder).
        return f"a bare run id is looked for in {_DEFAULT_RUNS}/ here; for a run written with -o DIR, pass DIR/{given.name}"
    return "pass a runs/<run-id> directory or its run.json"


def parse_record(data: object, where: str) -> RunRecord:
    from pydantic import ValidationError

    from spec_debug.record import READING, RECORD_SCHEMA_VERSION, RunRecord

    if not isinstance(data, dict):
        kind = {list: "array", str: "string", int: "number", float: "number", bool: "boolean"}.get(type(data), "null")
        raise UsageError(f"{where}: not a run record (a JSON {kind}, expected an object)")
    version = data.get("schema_version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        # `"1"` (a record rewritten by jq or a YAML round trip), 0 or null: no spec-debug wrote it
        raise UsageError(f"{where}: unknown run record schema_version {version!r}",
                         hint=f"spec-debug writes a whole number, 1 or more (this one writes {RECORD_SCHEMA_VERSION}): "
                              f"was run.json edited or rewritten by another tool? set \"schema_version\": "
                              f"{RECORD_SCHEMA_VERSION} if the rest is this run's record")
    try:
        record = RunRecord.model_validate(data, context=READING)
    except ValidationError as exc:
        problems = exc.errors(include_url=False)
        first = problems[0]
        field = ".".join(str(part) for part in first["loc"]) or "(top level)"
        problem = f"missing field {field}" if first["type"] == "missing" else f"bad field {field} ({first['msg']})"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        if version > RECORD_SCHEMA_VERSION:
            raise UsageError(
                f"{where}: run record schema {version} is newer than this spec-debug reads ({RECORD_SCHEMA_VERSION}): {problem}{more}",
                hint="upgrade spec-debug to render this record",
            ) from None
        raise UsageError(
            f"{where}: not a complete run record: {problem}{more}",
            hint="was it written by spec-debug run? (a run.json from another tool, or edited by hand)",
        ) from None
    note = _reading_note(data, version)
    if note:
        record.reading_notes.append(note)
    return record


def _reading_note(data: dict, version: int) -> str | None:
    """One sentence on what of a newer record this version renders only in part, or None.

    Unknown statuses and severities are kept as text, unknown fields kept but not shown, and
    a higher schema_version read as far as its fields validate: a report of a newer run shows
    what it can rather than nothing (what cannot validate is still refused above)."""
    from spec_debug.record import RECORD_SCHEMA_VERSION, unknown_parts

    parts = unknown_parts(data)
    newer = version > RECORD_SCHEMA_VERSION
    if not parts and not newer:
        return None
    writer = " ".join(str(data.get("spec_debug_version") or "").split())[:40]
    writer = writer if writer.isprintable() else repr(writer)  # one warning line, no escape codes
    known = "; ".join(parts or ["a field may mean something else now"])
    if newer or (writer and writer != __version__):
        schema = f"record schema {version}, " if newer else ""
        by = f"spec-debug {writer}" if writer else "a newer spec-debug"
        return (f"the record was written by {by} ({schema}this is spec-debug {__version__}, schema "
                f"{RECORD_SCHEMA_VERSION}) and is shown in part: {known} (upgrade spec-debug to see all of it)")
    return f"the record holds what this spec-debug ({__version__}) does not know: {known}"


def report_commands(run_dir: Path, names: Iterable[str] = ("report.md", "report.html")) -> list[str]:
    """The pasteable commands that write these reports from a saved run.json: a bare
    `spec-debug report DIR` prints Markdown to the terminal and writes no report."""
    from spec_debug.record import shell_word

    # shell_word: a Latin-1 folder's byte as $'\xe9', which a shell gives back (shlex.quote's
    # single quotes kept the text Python shows for it, a folder that does not exist).
    folder = shell_word(str(run_dir))
    return [f"spec-debug report {folder} -o {shell_word(str(run_dir / name))}" for name in names]
