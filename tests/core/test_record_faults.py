"""The run record survives the controller dying, a full disk and a read-only runs/ folder, and
`spec-debug report` explains a damaged run.json in one line.

The on-call engineer's laptop lid closes, CI cancels the job, the disk fills with hidden-state
dumps: whatever run.json is left must still be a complete record that reports render.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spec_debug.cli import app
from spec_debug.store import load_record
from tests.conftest import run_cli

# Each step prints ~60 KB, so run.json grows past a megabyte and every rewrite takes a while:
# a kill has a real chance to land in the middle of one.
BUSY_PLAYBOOK = "name: busy\nsteps:\n" + "".join(
    f"  - id: s{i:02d}\n    run: seq 1 12000; sleep 0.02\n" for i in range(60)
)


def start_run(playbook: Path, out: Path, **popen) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "COLUMNS": "300"}, **popen,
    )


def record_path(out: Path) -> Path:
    deadline = time.monotonic() + 60  # the CLI's start, which a loaded machine stretches
    while time.monotonic() < deadline:
        found = list(out.glob("*/run.json"))
        if found:
            return found[0]
        time.sleep(0.01)
    raise AssertionError(f"no run.json under {out}")


def wait_for_steps(path: Path, count: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if len(json.loads(path.read_text())["steps"]) >= count:
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.01)
    raise AssertionError(f"{path} never reached {count} steps")


def report_of(run_dir: Path) -> tuple[int, str, str]:
    result = run_cli("report", str(run_dir))
    return result.code, result.stdout, result.stderr


@pytest.fixture
def busy(tmp_path: Path) -> Path:
    path = tmp_path / "busy.yaml"
    path.write_text(BUSY_PLAYBOOK)
    return path


def test_a_reader_never_sees_a_half_written_record_and_sigkill_leaves_a_complete_one(tmp_path, busy):
    out = tmp_path / "runs"
    proc = start_run(busy, out)
    path = record_path(out)
    reads, torn = 0, []
    stop = threading.Event()

    def read_while_it_writes() -> None:
        nonlocal reads
        while not stop.is_set():
            try:
                text = path.read_text()
            except FileNotFoundError:
                continue
            reads += 1
            try:
                json.loads(text)
            except ValueError as exc:
                torn.append(f"{exc} ({len(text)} bytes)")

    reader = threading.Thread(target=read_while_it_writes)
    reader.start()
    try:
        wait_for_steps(path, 12)  # the record is ~1 MB now and rewritten several times a second
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        stop.set()
        reader.join()
        proc.kill()
        proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    assert reads > 20 and not torn, (reads, torn[:3])

    record = load_record(path.parent)
    assert record.status == "running" and record.finished_at is None
    assert len(record.steps) >= 12
    code, stdout, stderr = report_of(path.parent)
    assert code == 0, stderr
    assert "did not finish" in stdout and f"{len(record.steps)} step(s) that finished" in stdout
    assert "Clean" not in stdout


@pytest.mark.parametrize("after_steps", [1, 7])
def test_sigkill_at_any_moment_leaves_valid_json(tmp_path, busy, after_steps):
    out = tmp_path / "runs"
    proc = start_run(busy, out)
    path = record_path(out)
    wait_for_steps(path, after_steps)
    time.sleep(0.013 * after_steps)  # land somewhere between two writes, not right after one
    proc.kill()
    proc.communicate(timeout=10)
    record = json.loads(path.read_text())
    assert record["status"] == "running" and len(record["steps"]) >= after_steps
    assert load_record(path).run_id == path.parent.name


def test_second_ctrl_c_during_cleanup_still_leaves_a_record_that_reports(tmp_path, busy):
    out = tmp_path / "runs"
    proc = start_run(busy, out)
    path = record_path(out)
    wait_for_steps(path, 3)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.01)
    proc.send_signal(signal.SIGINT)  # the impatient second Ctrl-C
    _, stderr = proc.communicate(timeout=30)
    assert "Traceback" not in stderr
    assert proc.returncode in (3, 130), stderr
    record = load_record(path)
    assert record.abort_reason is not None or record.status == "running"
    code, stdout, _ = report_of(path.parent)
    assert code == 0
    assert "Clean" not in stdout and ("aborted" in stdout.lower() or "did not finish" in stdout)


def _limit_file_size(limit: int):
    def apply() -> None:
        # A file that may grow no further fails its write with EFBIG, like a full disk fails
        # it with ENOSPC; Python ignores SIGXFSZ, so the write raises instead of killing us.
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_record_that_cannot_grow_stops_the_run_with_one_line_and_keeps_the_last_record(tmp_path, busy):
    out = tmp_path / "runs"
    proc = start_run(busy, out, preexec_fn=_limit_file_size(400_000))
    _, stderr = proc.communicate(timeout=60)
    assert "Traceback" not in stderr, stderr[-3000:]
    assert proc.returncode == 3, stderr[-2000:]
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "cannot write" in errors[0] and "File too large" in errors[0], stderr[-2000:]
    assert "(the previous version is kept)" in errors[0]
    path = record_path(out)
    record = load_record(path)  # the last complete record, under the limit
    assert 0 < len(record.steps) < 60 and path.stat().st_size <= 400_000
    assert not list(path.parent.glob(".run.json.*.tmp")), "a failed write leaves no temp file"


def _private_tmpfs_available() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"], capture_output=True)
    return probe.returncode == 0


needs_tmpfs = pytest.mark.skipif(not _private_tmpfs_available(), reason="needs unshare -rm and tmpfs mounts (user namespaces)")


def _in_private_tmpfs(mount: Path, options: str, command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run command with a fresh tmpfs on mount, visible only to it: a real full or read-only
    disk, without root and without touching the host's mounts."""
    mount.mkdir(parents=True, exist_ok=True)
    script = f"mount -t tmpfs -o {options} tmpfs {mount} && {command}"
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=60, cwd=cwd,
        env={**os.environ, "COLUMNS": "300"},
    )


@needs_tmpfs
def test_full_disk_mid_run_exits_3_with_one_line(tmp_path, busy):
    disk, saved = tmp_path / "disk", tmp_path / "saved"
    cli = f"{sys.executable} -m spec_debug run {busy} --host local --out {disk}/runs"
    # The record lives on the tmpfs only while the namespace does: copy it out for the asserts.
    proc = _in_private_tmpfs(disk, "size=700k", f"{cli}; rc=$?; cp -r {disk}/runs {saved}; exit $rc", tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert proc.returncode == 3, proc.stderr[-2000:]
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "No space left on device" in errors[0], proc.stderr[-2000:]
    assert "--out" in proc.stderr  # the hint says where else to write
    record = load_record(record_path(saved))
    assert len(record.steps) > 0


@needs_tmpfs
def test_read_only_runs_folder_exits_2_with_one_line(tmp_path, busy):
    disk = tmp_path / "ro"
    cli = f"{sys.executable} -m spec_debug run {busy} --host local --out {disk}"
    proc = _in_private_tmpfs(disk, "ro,size=64k", cli, tmp_path)
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"error: cannot create a run folder in {disk}: Read-only file system")
    assert "--out DIR" in proc.stderr


# ------------------------------------------------------------------ damaged run.json

@pytest.fixture(scope="module")
def good_record(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("good")
    playbook = folder / "p.yaml"
    playbook.write_text("name: small\nsteps:\n  - id: hello\n    run: echo hello\n  - id: bye\n    run: echo bye\n")
    assert run_cli("run", str(playbook), "--host", "local", "--out", str(folder / "runs")).code == 0
    return next((folder / "runs").glob("*/run.json")).read_text()


def _without(record: dict, *keys: str) -> dict:
    return {k: v for k, v in record.items() if k not in keys}


DAMAGED: dict[str, tuple[object, str]] = {
    # name: (how to damage the good record, words the one error line must contain)
    "empty": (lambda text: "", "run.json is empty"),
    "truncated_half": (lambda text: text[: len(text) // 2], "not valid JSON"),
    "truncated_last_byte": (lambda text: text.rstrip()[:-1], "not valid JSON"),
    "html_error_page": (lambda text: "<html><body>502 Bad Gateway</body></html>", "not valid JSON"),
    "binary": (lambda text: b"\x89PNG\r\n\x1a\n\x00\xff", "not UTF-8"),
    "json_list": (lambda text: "[1, 2, 3]", "not a run record (a JSON array, expected an object)"),
    "json_string": (lambda text: '"run"', "not a run record (a JSON string"),
    "missing_playbook": (lambda text: json.dumps(_without(json.loads(text), "playbook")), "missing field playbook"),
    "missing_step_status": (
        lambda text: json.dumps({**json.loads(text), "steps": [_without(json.loads(text)["steps"][0], "status")]}),
        "missing field steps.0.status",
    ),
    "steps_not_a_list": (lambda text: json.dumps({**json.loads(text), "steps": "many"}), "bad field steps (Input should be a valid list)"),
    # A status as text this version does not know renders (a newer spec-debug's; see
    # test_hardening13_newer_records); one that is not text at all is damage.
    "status_not_text": (lambda text: json.dumps({**json.loads(text), "status": 5}), "bad field status (Input should be text such as 'running'"),
    "schema_version_text": (lambda text: json.dumps({**json.loads(text), "schema_version": "two"}), "unknown run record schema_version 'two'"),
    "schema_version_zero": (lambda text: json.dumps({**json.loads(text), "schema_version": 0}), "unknown run record schema_version 0"),
    "newer_schema_incompatible": (
        lambda text: json.dumps({**_without(json.loads(text), "steps"), "schema_version": 7, "steps": {"by_host": {}}}),
        "run record schema 7 is newer than this spec-debug reads",
    ),
    "old_prototype_record": (lambda text: json.dumps({"id": "x", "results": []}), "missing field run_id"),
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_report_on_a_damaged_record_is_one_line(tmp_path, good_record, case):
    damage, words = DAMAGED[case]
    run_dir = tmp_path / "20260101T000000000Z-small-abcdef"
    run_dir.mkdir()
    damaged = damage(good_record)  # type: ignore[operator]
    (run_dir / "run.json").write_bytes(damaged if isinstance(damaged, bytes) else damaged.encode())
    result = CliRunner().invoke(app, ["report", str(run_dir)], env={"COLUMNS": "2000"})
    assert isinstance(result.exception, SystemExit) and result.exit_code == 2, (repr(result.exception), result.output)
    error, *rest = result.output.splitlines()
    assert error.startswith(f"error: {run_dir / 'run.json'}") and words in error, result.output
    assert all(line.startswith("  hint: ") for line in rest), result.output


def test_report_on_a_damaged_record_in_a_real_process(tmp_path, good_record):
    (tmp_path / "run.json").write_text(good_record[: len(good_record) // 3])
    code, stdout, stderr = report_of(tmp_path)
    assert code == 2 and stdout == "" and "Traceback" not in stderr
    assert stderr.splitlines()[0].startswith(f"error: {tmp_path / 'run.json'}:")
    assert "it was cut off" in stderr


def test_newer_record_with_only_added_fields_still_renders(tmp_path, good_record):
    """Field names are a contract (fields are only ever added), so a newer record still renders."""
    newer = {**json.loads(good_record), "schema_version": 3, "added_later": {"x": 1}}
    (tmp_path / "run.json").write_text(json.dumps(newer))
    result = CliRunner().invoke(app, ["report", str(tmp_path)], env={"COLUMNS": "2000"})
    assert result.exit_code == 0, result.output
    assert "small" in result.output


def test_record_written_before_schema_version_existed_still_renders(tmp_path, good_record):
    (tmp_path / "run.json").write_text(json.dumps(_without(json.loads(good_record), "schema_version")))
    assert load_record(tmp_path).schema_version == 1


def test_report_on_a_path_too_long_is_one_line():
    result = CliRunner().invoke(app, ["report", "r" * 5000], env={"COLUMNS": "2000"})
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.output.startswith("error: cannot read rrr") and "File name too long" in result.output


BAD_TEMPLATES = {
    "divides_by_zero": ("# {{ record.run_id }}\n{{ 1 / 0 }}\n", ":2 failed: ZeroDivisionError: division by zero"),
    "adds_str_and_int": ("{{ record.run_id + 1 }}", ":1 failed: TypeError: can only concatenate str"),
    "recurses_forever": ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", ":1 failed: RecursionError"),
    "not_utf8": (b"\xff\xfe{{ x }}", " failed: not UTF-8 text (byte 0)"),
    "includes_a_missing_file": ('{% include "nope.j2" %}', ":1 failed: template not found: nope.j2"),
    "syntax_error_on_line_3": ("a\nb\n{% if %}", ":3 failed: Expected an expression"),
    "reaches_for_python_internals": ("{{ record.__class__.__mro__ }}", " failed: access to attribute '__class__'"),
}


@pytest.mark.parametrize("case", sorted(BAD_TEMPLATES))
def test_report_with_a_broken_custom_template_is_one_line(tmp_path, good_record, case):
    """--template runs anyone's Jinja: its bugs are theirs to fix, with the line to look at."""
    source, words = BAD_TEMPLATES[case]
    template = tmp_path / "mine.md.j2"
    template.write_bytes(source if isinstance(source, bytes) else source.encode())
    (tmp_path / "run.json").write_text(good_record)
    result = CliRunner().invoke(app, ["report", str(tmp_path), "--template", str(template)], env={"COLUMNS": "2000"})
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), (repr(result.exception), result.output)
    assert result.output.startswith(f"error: report template {template}") and words in result.output, result.output
    assert len(result.output.splitlines()) == 1


def test_junit_and_step_summary_survive_colour_codes_and_nul_bytes_in_output(tmp_path):
    """Tools print ANSI colours and stray NULs; XML 1.0 cannot carry them, and CI parsers reject
    the whole JUnit file if they slip through. A title with a newline must not break the table."""
    playbook = tmp_path / "noisy.yaml"
    playbook.write_text(
        "name: noisy\nsteps:\n  - id: colours\n"
        "    run: printf '\\033[31mFAIL\\033[0m \\000 nul \\001 soh\\n'; printf '\\033[1mTraceback\\033[0m\\n' >&2; exit 1\n"
        "    expect:\n      - exit_code: 0\n"
        "    findings:\n      - code: SD900\n        severity: error\n"
        "        title: \"broke on {{ host }}\\nsecond line | with a pipe\"\n"
    )
    junit, summary = tmp_path / "junit" / "result.xml", tmp_path / "summary.md"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--junit", str(junit),
                     env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert result.code == 1, result.stderr
    import xml.etree.ElementTree as ET

    suites = ET.fromstring(junit.read_bytes())  # expat refuses any character XML 1.0 forbids
    out = suites.find(".//system-out")
    # shown as the terminal showed it: no colour codes, the NUL and SOH as control pictures
    assert out is not None and out.text == "FAIL \u2400 nul \u2401 soh\n"
    assert suites.find(".//system-err").text == "Traceback\n"
    assert suites.find(".//failure").get("message").startswith("SD900 broke on local")
    rows = [line for line in summary.read_text().splitlines() if line.startswith("| :x:")]
    assert rows == ["| :x: | SD900 | broke on local second line \\| with a pipe | local | colours |"]


def test_report_refuses_a_fifo_instead_of_blocking_forever(tmp_path):
    fifo = tmp_path / "run.json"
    os.mkfifo(fifo)
    result = run_cli("report", str(tmp_path), timeout=30)
    assert result.code == 2 and result.stderr.startswith(f"error: {fifo} is not a regular file")
