"""A fetch step given up at its timeout, as the report and the artifacts show it.

The step's record said which files were never copied (`fetch_not_reached`) only in run.json
and in one long message; the reports' "Files not copied whole" table had no row for them, so
a reader of report.md could not tell that three server logs were never copied. And the log
being copied when time ran out was dropped whole, though its first lines are the evidence.
Now the copy given up keeps the bytes that came, marked where they end, and both reports list
it (with the bytes kept) and each file not reached. A record written before these facts
renders as it did.

The hang is real and needs no privileges: a FIFO whose writer sends the first 20,000 bytes of
a server log and then stops, as a log on an NFS mount that died mid-read does.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from tests.conftest import only_run
from tests.core.test_hardening12_unkillable_step import pytestmark as needs_fuse
from tests.core.test_hardening19_runner_fetch_flush import wait_buffered
from tests.core.test_hardening13_fetch_hung_mount import in_hung_mount

LOG_LINE = b"Decode batch. #running-req: 1, #token: 4096, accept len: 1.02\n"
SENT = (LOG_LINE * 400)[:20_000]


@pytest.fixture
def log_that_stops(tmp_path: Path) -> Iterator[Path]:
    """A server log whose first 20,000 bytes come at once, and then nothing."""
    (tmp_path / "host").mkdir()
    fifo = tmp_path / "host" / "server.log"
    os.mkfifo(fifo)
    (tmp_path / "sent.log").write_bytes(SENT)
    end = os.open(fifo, os.O_RDWR)  # opens at once: no reader needed yet
    # Sleeps far longer than any run here: its end would close the FIFO and the copy would end.
    writer = subprocess.Popen(["sh", "-c", f"cat {tmp_path}/sent.log; exec sleep 600"], stdout=end, start_new_session=True)
    try:
        # The 20,000 bytes are in the FIFO (64 KiB) before the run starts: a writer the load kept
        # from running until the step's 2 s ran out would leave nothing to keep, for no fault.
        wait_buffered(end, len(SENT))
    except BaseException:
        os.killpg(writer.pid, signal.SIGKILL)  # it never ends by itself
        writer.wait()
        raise
    finally:
        os.close(end)
    yield fifo
    os.killpg(writer.pid, signal.SIGKILL)
    writer.wait()


def _spec_debug(*args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, timeout=60, check=False)
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    return proc


def _run(tmp_path: Path, stuck: Path) -> tuple[Path, dict]:
    host = tmp_path / "host"
    (host / "config.json").write_text('{"architectures": ["LlamaForCausalLMEagle3"]}\n')
    logs = [host / f"{name}.log" for name in ("router", "dmesg", "scheduler")]
    for log in logs:
        log.write_text("never copied\n")
    sources = ", ".join(f'"{path}"' for path in [host / "config.json", stuck, *logs])
    playbook = tmp_path / "grab.yaml"
    playbook.write_text(f"name: grab\nsteps:\n  - id: grab_logs\n    timeout: 2\n    fetch: {{src: [{sources}], dest: logs}}\n")
    out = tmp_path / "runs"
    _spec_debug("run", str(playbook), "--host", "local", "--out", str(out))
    return only_run(out)


def test_a_log_given_up_at_the_timeout_keeps_its_first_bytes_marked_as_cut(tmp_path: Path, log_that_stops: Path) -> None:
    run_dir, record = _run(tmp_path, log_that_stops)
    (step,) = record["steps"]
    assert step["status"] == "timeout", step["message"]
    given_up = step["facts"]["fetch_given_up"]
    assert given_up["src"] == str(log_that_stops) and given_up["artifact"] == "artifacts/local/logs/server.log", given_up
    kept = given_up["bytes_kept"]
    assert 0 < kept <= len(SENT)
    copy = (run_dir / given_up["artifact"]).read_bytes()
    # The host's first bytes, as sent, then a line that says the file stops there and why.
    assert copy[:kept] == SENT[:kept]
    marker = copy[kept:].decode()
    assert marker.startswith("\n... [spec-debug: copy given up here: the fetch step's timeout of 2 s ran out;"), marker
    assert f"keeps the first {kept} bytes of {log_that_stops}" in marker
    # It is an artifact of the step; the files copied whole before it are counted apart.
    assert step["artifacts"] == ["artifacts/local/logs/config.json", "artifacts/local/logs/server.log"]
    assert "the 1 file copied before is kept" in step["message"]
    assert f"while copying {log_that_stops} (its first " in step["message"]
    assert step["facts"]["fetch_timeout"] == 2


def test_the_reports_name_the_file_given_up_and_each_file_never_copied(tmp_path: Path, log_that_stops: Path) -> None:
    run_dir, record = _run(tmp_path, log_that_stops)
    (step,) = record["steps"]
    kept = step["facts"]["fetch_given_up"]["bytes_kept"]
    never = [str(tmp_path / "host" / f"{name}.log") for name in ("router", "dmesg", "scheduler")]
    assert step["facts"]["fetch_not_reached"] == never  # the fault this test is about did happen

    markdown = (run_dir / "report.md").read_text()
    table = markdown.split("## Files not copied whole", 1)[1].split("\n## ", 1)[0]
    kept_words = f"first {kept / 1024:.1f} KiB kept" if kept >= 1024 else f"first {kept} bytes kept"
    assert f"| `local` | grab_logs | `{log_that_stops}` | {kept_words} | given up while being copied: the step's timeout of 2 s ran out" in table
    for log in never:
        assert f"| `local` | grab_logs | `{log}` | not reached | never copied: the step's timeout of 2 s ran out" in table
    assert "- step grab_logs: its timeout of 2 s ran out: raise `timeout:` on the step" in table
    # The Artifacts table says what the kept copy lacks.
    assert "its copy was given up at the step's timeout" in markdown.split("## Artifacts", 1)[1]

    html = (run_dir / "report.html").read_text()
    section = html.split('<h2 id="not-copied">Files not copied whole</h2>', 1)[1].split("<h2", 1)[0]
    assert f"<code>{log_that_stops}</code></td><td>{kept_words}</td>" in section
    for log in never:
        assert f"<code>{log}</code></td><td>not reached</td>" in section

    # `report --format json` is still the record itself.
    shown = _spec_debug("report", str(run_dir), "--format", "json")
    assert json.loads(shown.stdout) == record


def test_a_copy_that_got_no_byte_leaves_no_artifact_and_says_so(tmp_path: Path) -> None:
    silent = tmp_path / "host" / "hung.log"
    silent.parent.mkdir()
    os.mkfifo(silent)  # nobody writes it: its open() waits, as on a dead mount
    try:
        run_dir, record = _run(tmp_path, silent)
    finally:
        try:  # end the copy's reader, still blocked in open()
            os.close(os.open(silent, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
    (step,) = record["steps"]
    assert step["facts"]["fetch_given_up"] == {"src": str(silent), "while": "copying", "artifact": None, "bytes_kept": 0}
    assert step["artifacts"] == ["artifacts/local/logs/config.json"]
    assert sorted(p.name for p in (run_dir / "artifacts/local/logs").iterdir()) == ["config.json"]
    assert f"| `{silent}` | nothing kept | given up while being copied: the step's timeout of 2 s ran out before a byte" in (
        (run_dir / "report.md").read_text().replace("| `local` | grab_logs ", "")
    )


def _older(record: dict, drop: tuple[str, ...], folder: Path) -> Path:
    """The record as an older spec-debug wrote it: without the facts named."""
    for step in record["steps"]:
        for name in drop:
            step["facts"].pop(name, None)
    for facts in record["facts"].values():
        for name in drop:
            facts.pop(name, None)
    folder.mkdir()
    (folder / "run.json").write_text(json.dumps(record))
    return folder


def test_a_record_written_before_these_facts_renders_as_before(tmp_path: Path, log_that_stops: Path) -> None:
    _, record = _run(tmp_path, log_that_stops)
    new_facts = ("fetch_timed_out", "fetch_not_reached", "fetch_given_up", "fetch_timeout")
    # Before the fetch timeout facts: no row, no section (the copy kept is in no other table).
    before = _older(json.loads(json.dumps(record)), new_facts, tmp_path / "before")
    for fmt in ("md", "html"):
        shown = _spec_debug("report", str(before), "--format", fmt)
        assert shown.returncode == 0 and "Files not copied whole" not in shown.stdout, shown.stdout[-2000:]
    # Earlier today's records hold fetch_timed_out and fetch_not_reached only: the files not
    # reached are listed, without the timeout's seconds, which they do not hold.
    today = _older(json.loads(json.dumps(record)), ("fetch_given_up", "fetch_timeout"), tmp_path / "today")
    shown = _spec_debug("report", str(today), "--format", "md").stdout
    table = shown.split("## Files not copied whole", 1)[1].split("\n## ", 1)[0]
    assert table.count("| not reached | never copied: the step's timeout ran out before its copy began |") == 3, table
    assert str(log_that_stops) not in table


@needs_fuse
def test_a_pattern_given_up_while_listing_is_named_in_the_report(tmp_path: Path) -> None:
    mount = tmp_path / "nfs"
    mount.mkdir()
    dmesg = tmp_path / "dmesg.txt"
    dmesg.write_text("[  12.3] NVRM: Xid 79\n")
    playbook = tmp_path / "grab.yaml"
    # The pattern names its folder by a var: the report says the folder the host was asked for.
    playbook.write_text(
        f'name: grab\nvars:\n  log_dir: "{mount}"\nsteps:\n  - id: grab_logs\n    timeout: 1\n'
        f'    fetch: {{src: ["{{{{ log_dir }}}}/*.log", "{dmesg}"]}}\n'
    )
    out = tmp_path / "runs"
    proc, ended = in_hung_mount(mount, [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)], tmp_path)
    assert ended["rc"] is not None and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    run_dir, record = only_run(out)
    (step,) = record["steps"]
    assert step["facts"]["fetch_given_up"] == {"src": f"{mount}/*.log", "while": "listing"}, step["message"]
    table = (run_dir / "report.md").read_text().split("## Files not copied whole", 1)[1].split("\n## ", 1)[0]
    assert f"| `{mount}/*.log` | not listed | given up while listing its files: the step's timeout of 1 s ran out" in table
    assert f"| `{dmesg}` | not reached | never copied" in table
