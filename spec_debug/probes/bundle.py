"""Build the probe bundle (a zipapp) and make sure a host has it.

The bundle holds spec_debug.probes and spec_debug.eagle3 (stdlib + torch code only). Its
name carries a content hash, so it is uploaded once per host per version and a stale copy
can never be run by mistake.
"""

from __future__ import annotations

import hashlib
import io
import os
import posixpath
import shlex
import tempfile
import threading
import weakref
import zipfile
from pathlib import Path

from spec_debug.errors import TransportError
from spec_debug.probes.hostmain import ERROR_KEY
from spec_debug.runner.host_path import WITH_STANDARD_PATH
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.transport import Transport

_PACKAGES = ("probes", "eagle3")
# Controller-side modules: CLI front-ends (typer/rich) and the probe registry (pydantic), which
# hosts need not have and never import.
_EXCLUDED = {"commands.py", "registry.py", "bundle.py", "builtin.py"}
MIN_PYTHON = (3, 8)
"""The oldest host Python the probes run on (Ubuntu 20.04's python3)."""
# The version is checked before any bundled module is imported, in code Python 2 compiles too:
# an older interpreter failed on the first module's `from __future__ import annotations`, and
# the step said only "SyntaxError: future feature annotations is not defined".
_MAIN = f"""import sys
if sys.version_info[:2] < {MIN_PYTHON!r}:
    import json
    message = ("Python %s at %s is too old for the probes ({MIN_PYTHON[0]}.{MIN_PYTHON[1]} or newer): name a newer one "
               "with --var python=/path/to/python3" % (sys.version.split()[0], sys.executable or "?"))
    sys.stdout.write(json.dumps({{{ERROR_KEY!r}: {{"type": "PythonTooOld", "message": message}}}}) + "\\n")
    sys.exit(1)
from spec_debug.probes.hostmain import main
raise SystemExit(main())
"""
REMOTE_DIR = ".cache/spec-debug"

_lock = threading.Lock()
_built: Path | None = None
# Per live transport (a weak key: a host's connection closed, its entry goes with it). Keyed
# by id() it was not: with more hosts than --forks, a new host's transport could get a closed
# one's id, skip the upload and run a bundle its host does not have.
_uploaded: "weakref.WeakKeyDictionary[Transport, dict[str, str]]" = weakref.WeakKeyDictionary()


def _package_root() -> Path:
    return Path(__file__).resolve().parent.parent


def _bundle_bytes() -> bytes:
    root = _package_root()
    # errors.py: host code raises the same exception types the controller explains.
    files: list[tuple[str, bytes]] = [
        (f"spec_debug/{name}", (root / name).read_bytes()) for name in ("__init__.py", "errors.py")
    ]
    for package in _PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if path.name in _EXCLUDED or "__pycache__" in path.parts:
                continue
            files.append((f"spec_debug/{path.relative_to(root).as_posix()}", path.read_bytes()))
    files.append(("__main__.py", _MAIN.encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # fixed: same content, same hash
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


def local_bundle() -> Path:
    """Build (once per process) and cache the bundle on this machine."""
    global _built
    with _lock:
        if _built is not None and _built.exists():
            return _built
        data = _bundle_bytes()
        digest = hashlib.sha256(data).hexdigest()[:16]
        cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "spec-debug"
        try:
            cache.mkdir(parents=True, exist_ok=True)
        except OSError:
            cache = Path(tempfile.gettempdir()) / "spec-debug"
            cache.mkdir(parents=True, exist_ok=True)
        path = cache / f"bundle-{digest}.pyz"
        if not path.exists():
            tmp = path.with_suffix(f".tmp{os.getpid()}")
            tmp.write_bytes(data)
            os.replace(tmp, path)
        _built = path
        return path


def ensure_bundle(transport: Transport) -> str:
    """The bundle's path on the transport's host, uploading it the first time."""
    from spec_debug.runner.local import LocalTransport

    local = local_bundle()
    if isinstance(transport, LocalTransport):
        return str(local)
    with _lock:
        known = _uploaded.get(transport, {}).get(local.name)
    if known is not None:
        return known
    remote = f"{REMOTE_DIR}/{local.name}"
    out, err = StreamCapture("stdout", 4096), StreamCapture("stderr", 4096)
    outcome = transport.run(WITH_STANDARD_PATH + _whole_copy_test(shlex.quote(remote), local), stdout=out, stderr=err, timeout_s=60)
    if outcome.exit_code != 0:
        transport.run(_STALE_PARTS_SWEEP, stdout=StreamCapture("stdout", 1024), stderr=StreamCapture("stderr", 1024), timeout_s=60)
        try:
            transport.put(local, remote)
        except OSError as exc:  # the home is read-only or full: a private folder under /tmp
            remote = _put_in_private_tmp(transport, local, exc)
    with _lock:
        _uploaded.setdefault(transport, {})[local.name] = remote
    return remote


_STALE_PARTS_SWEEP = WITH_STANDARD_PATH + (
    f"find {REMOTE_DIR} -maxdepth 1 -type f -name 'bundle-*.pyz.part-*' -mmin +60 -exec rm -f -- {{}} + 2>/dev/null; true"
)
"""sh run before an upload: removes the parts of bundle uploads that a dropped connection cut
(the SFTP upload writes `<bundle>.part-XXXXXXXX` and renames it once whole: ssh_sftp.py, put),
which nothing else could remove, one more per cut, in a home whose quota is often small. Only
parts not written to for an hour: a concurrent run's upload writes to its part all the time.
Run only when this bundle is not on the host yet, which is the case after a cut upload."""


def _whole_copy_test(path: str, local: Path) -> str:
    """sh that exits 0 only if the host's copy is this bundle, byte for byte. `test -s` alone took
    any non-empty file: a copy cut short (by an older spec-debug's upload, which renamed what it
    had; by a host that crashed before the data reached the disk) keeps its content-hashed name,
    and every later run on that host ran it ("SyntaxError: source code cannot contain null bytes")
    until someone deleted it.
    A host without wc or sha256sum skips that check. `path`: a shell word (quoted).
    Run after WITH_STANDARD_PATH, as all of this module's commands: under a login PATH an rc
    file clobbered (`export PATH=/opt/miniconda3/bin`), `command -v` found neither tool, and a
    copy cut short was taken; so were stale parts kept (find) and folders left (mktemp, rm)."""
    data = local.read_bytes()
    return (
        f"test -s {path}"
        f" && {{ ! command -v wc >/dev/null 2>&1 || test \"$(wc -c < {path})\" -eq {len(data)}; }}"
        f" && {{ ! command -v sha256sum >/dev/null 2>&1 || test \"$(sha256sum < {path})\" = "
        f"'{hashlib.sha256(data).hexdigest()}  -'; }}"
    )


def _put_in_private_tmp(transport: Transport, local: Path, first: OSError) -> str:
    """Upload into a fresh ``mktemp -d`` folder (mode 700) under /tmp, else under the host's
    $TMPDIR. Never a fixed path: another user could plant a file there that we would then run.
    If every try fails too, the first error (about the home) is the one to report.

    $TMPDIR is where the host's own tools put temporary files where /tmp is small (a site's
    /etc/environment or ~/.bashrc sets it to a local scratch disk): with the home and /tmp full
    (a Hugging Face cache over quota, torch compile caches and core dumps), every probe step
    failed "cannot upload" while that disk had room."""
    bases = _temp_bases(transport)
    kept = _kept_private_copy(transport, local, bases)
    if kept is not None:
        return kept
    for base in bases:
        out, err = StreamCapture("stdout", 4096), StreamCapture("stderr", 4096)
        try:
            made = transport.run(f"{WITH_STANDARD_PATH}mktemp -d {shlex.quote(base + '/spec-debug.XXXXXX')}",
                                 stdout=out, stderr=err, timeout_s=60)
            folder = out.text().strip()
            if made.exit_code != 0 or not _made_under(folder, base):
                continue
            remote = f"{folder}/{local.name}"
            try:
                transport.put(local, remote)
            except OSError:
                # Else each try left an empty folder behind: one per probe step per run on a host
                # whose /tmp is full (GPU hosts fill it with compile caches and core dumps).
                _remove_quietly(transport, folder)
                continue
        except OSError:
            continue
        return remote
    raise first from None


def _temp_bases(transport: Transport) -> list[str]:
    """Where a private folder may go: /tmp, then the login's $TMPDIR where that is another
    absolute path."""
    out, err = StreamCapture("stdout", 4096), StreamCapture("stderr", 4096)
    try:
        said = transport.run('printf \'%s\' "${TMPDIR-}"', stdout=out, stderr=err, timeout_s=60)
    except OSError:
        return ["/tmp"]
    value = out.text()
    if said.exit_code != 0 or not value.startswith("/") or "\n" in value or "\0" in value:
        return ["/tmp"]
    base = posixpath.normpath(value)
    return ["/tmp"] if base in ("/", "/tmp") else ["/tmp", base]


def _made_under(folder: str, base: str) -> bool:
    """Whether folder is what `mktemp -d BASE/spec-debug.XXXXXX` prints: one new name in base."""
    return "\n" not in folder and posixpath.dirname(folder) == base and posixpath.basename(folder).startswith("spec-debug.")


def _kept_private_copy(transport: Transport, local: Path, bases: list[str]) -> str | None:
    """A whole copy of this bundle in a private folder an earlier run made, if there is one: each
    run on a host whose home takes no upload made a new folder and left another copy of the
    bundle in /tmp. Only a real folder (not a link) owned by this user is taken, as mktemp -d
    made it: no other user can make one that this user owns."""
    out, err = StreamCapture("stdout", 4096), StreamCapture("stderr", 4096)
    whole = _whole_copy_test(f'"$d"/{shlex.quote(local.name)}', local)
    globs = " ".join(f"{shlex.quote(base)}/spec-debug.*" for base in bases)
    script = (
        f"{WITH_STANDARD_PATH}found=; for d in {globs}; do "
        f'if test -z "$found" && test -d "$d" && test ! -h "$d" && test -O "$d" && {{ {whole}; }}; then found=$d; fi; '
        'done; test -n "$found" && printf \'%s\\n\' "$found"'
    )
    try:
        outcome = transport.run(script, stdout=out, stderr=err, timeout_s=60)
    except OSError:
        return None
    folder = out.text().strip()
    if outcome.exit_code != 0 or not any(_made_under(folder, base) for base in bases):
        return None
    return f"{folder}/{local.name}"


def _remove_quietly(transport: Transport, folder: str) -> None:
    """Remove a folder this run made; the upload's error is the one to report, not this."""
    out, err = StreamCapture("stdout", 4096), StreamCapture("stderr", 4096)
    try:
        transport.run(f"{WITH_STANDARD_PATH}rm -rf -- {shlex.quote(folder)}", stdout=out, stderr=err, timeout_s=60)
    except (OSError, TransportError):
        pass  # the connection broke: the next step says so
