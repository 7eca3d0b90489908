"""Transcripts as people keep and hand them over: compressed (``gzip -r`` over a project
folder, logrotate's ``.gz``, ``.bz2``/``.xz``), pretty-printed with ``jq .``, saved by
PowerShell, or holding half an emoji. Each is read as the session it is, or refused with one
clear line; never a traceback."""

from __future__ import annotations

import bz2
import codecs
import gzip
import json
import lzma
import shutil
import subprocess
import tarfile
import tracemalloc
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path, parallel, reader
from spec_debug.session.commands import analyze_command, analysis_json
from spec_debug.session.events import ReadStats

DATA = Path(__file__).resolve().parent.parent / "data" / "transcripts"
PRETTY = Path(__file__).resolve().parent / "data_h6"
CLAUDE = DATA / "claude-code" / "representative_messages.jsonl"
CODEX = DATA / "codex" / "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl"
SHOWCASE = DATA / "claude-code" / "minimal_showcase"
SESSION_ID = "55550000-0000-4000-8000-000000000001"
COMPRESS = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}


_CHAT_CALL = [
    {"role": "user", "content": "check gpu01"},
    {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
        "name": "bash", "arguments": json.dumps({"command": "ssh gpu01 nvidia-smi"})}}]},
]
"""An OpenAI chat turn that runs one command (TRANSCRIPTS.md section 1e)."""


def _seen(analysis) -> dict:
    """What a reader of the postmortem sees of a session, without the file names."""
    return {
        "events": analysis.stats["events"],
        "commands": [(c.command, c.host, c.exit_code, c.line) for c in analysis.commands],
        "errors": [(e.kind, e.message) for e in analysis.errors],
        "formats": [s["format"] for s in analysis.sessions],
        "agents": sorted((a["id"], a["events"]) for a in analysis.agents),
    }


# --- compressed transcripts ---------------------------------------------------------------


@pytest.mark.parametrize("suffix", sorted(COMPRESS))
@pytest.mark.parametrize("sample", [CLAUDE, CODEX], ids=["claude-code", "codex"])
def test_a_compressed_transcript_reads_as_the_file_it_was(tmp_path, sample, suffix):
    # Before: "error: s.jsonl.gz: a gzip archive, not a transcript" (exit 2).
    packed = tmp_path / f"{sample.stem}.jsonl.{suffix}"
    packed.write_bytes(COMPRESS[suffix](sample.read_bytes()))
    plain, got = analyze_path(sample), analyze_path(packed)
    assert _seen(got) == _seen(plain) and plain.stats["events"] > 0
    assert got.sessions[0]["id"] == sample.stem  # the session id, not "<id>.jsonl"
    assert got.sessions[0]["damaged_files"] == 0


def test_compression_is_known_by_its_bytes_not_its_name(tmp_path):
    # A .gz renamed back to .jsonl (or fetched with curl --compressed off): the bytes say gzip.
    disguised = tmp_path / "session.jsonl"
    disguised.write_bytes(gzip.compress(CLAUDE.read_bytes()))
    assert _seen(analyze_path(disguised)) == _seen(analyze_path(CLAUDE))


def test_a_project_folder_gzipped_whole_keeps_its_sub_agents(tmp_path):
    # `gzip -r ~/.claude/projects/<project>` before archiving: trunk and sub-agent files are
    # all *.jsonl.gz. Before: "no transcript files found" for the folder.
    project = tmp_path / "project"
    shutil.copytree(SHOWCASE, project)
    before = analyze_path(project)
    subprocess.run(["gzip", "-r", str(project)], check=True)
    assert (project / SESSION_ID / "subagents" / "agent-showcol1.jsonl.gz").is_file()
    assert not list(project.rglob("*.jsonl"))
    for path in (project, project / SESSION_ID, project / f"{SESSION_ID}.jsonl.gz"):
        after = analyze_path(path)
        assert _seen(after) == _seen(before), path
        assert [s["id"] for s in after.sessions] == [SESSION_ID]
    assert ("showcol1", 2) in _seen(before)["agents"]


def _long_session(records: int) -> bytes:
    lines = []
    for i in range(records):
        lines.append(json.dumps({
            "type": "assistant", "uuid": f"a{i}", "parentUuid": f"u{i}", "sessionId": "s",
            "timestamp": f"2026-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}Z",
            "message": {"role": "assistant", "content": [{"type": "tool_use", "id": f"t{i}", "name": "Bash",
                                                          "input": {"command": f"ssh gpu01 'nvidia-smi -i {i}'"}}]}}))
        lines.append(json.dumps({
            "type": "user", "uuid": f"u{i + 1}", "parentUuid": f"a{i}", "sessionId": "s",
            "timestamp": f"2026-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}Z",
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{i}",
                                                     "content": f"GPU {i}: {i * 7919 % 100003:x} MiB used " * 8}]}}))
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("suffix", ["gz", "xz"])
def test_a_cut_compressed_file_keeps_what_came_before_and_says_so(tmp_path, suffix):
    # A copy stopped half way (scp interrupted, a full disk). Before: usage error; a naive
    # streaming read would end in EOFError "Compressed file ended before the end-of-stream
    # marker was reached".
    whole = COMPRESS[suffix](_long_session(400))
    cut = tmp_path / f"s.jsonl.{suffix}"
    cut.write_bytes(whole[: len(whole) // 2])
    analysis = analyze_path(cut)
    session = analysis.sessions[0]
    assert session["format"] == "claude-code" and session["damaged_files"] == 1
    assert analysis.stats["broken_json"] == 1  # the record the cut went through, in the summary line
    assert 0 < len(analysis.commands) < 400
    # The commands kept are the first ones, in order.
    assert [c.command for c in analysis.commands] == [f"ssh gpu01 'nvidia-smi -i {i}'"
                                                      for i in range(len(analysis.commands))]
    stats = ReadStats()
    lines = sum(1 for _ in reader.iter_lines(cut, stats))
    assert stats.damaged == [f"{cut.name}: the {'gzip' if suffix == 'gz' else 'xz'} stream is cut short or corrupt "
                             f"after line {lines} (Compressed file ended before the end-of-stream marker was "
                             f"reached); the lines before it were read"]
    assert '"damaged_files": 1' in analysis_json(analysis)


def test_a_compressed_file_that_does_not_decompress_is_one_clear_error(tmp_path):
    # gzip magic, then garbage (a file that only looks compressed). Before this change, once
    # .gz was read: gzip.BadGzipFile traceback.
    bad = tmp_path / "s.jsonl.gz"
    bad.write_bytes(b"\x1f\x8b\x09garbage that is no deflate stream")
    with pytest.raises(UsageError, match=r"s\.jsonl\.gz: cannot be read: its gzip data is cut short or corrupt "
                                         r"\(Unknown compression method\)"):
        analyze_path(bad)
    (tmp_path / "notes.log").write_text("root@gpu02:~# nvidia-smi\n")
    assert [c.host for c in analyze_path(tmp_path).commands] == ["gpu02"]  # skipped in a folder


def test_a_tarball_of_sessions_is_refused_with_how_to_unpack_it(tmp_path):
    # `tar czf sessions.tgz ~/.claude/projects/x`: gzip outside, many files inside.
    tgz = tmp_path / "sessions.tgz"
    with tarfile.open(tgz, "w:gz") as tar:
        tar.add(CLAUDE, arcname="x/s.jsonl")
    with pytest.raises(UsageError, match="a tar archive, not a transcript") as caught:
        analyze_path(tgz)
    assert "tar -xf sessions.tgz" in caught.value.hint


def test_a_compressed_file_is_read_as_a_stream(tmp_path):
    # A 24 MB line (a pasted base64 image) inside a 30 KB gzip: the line is skipped as too long
    # without ever being held whole, and the line after it is read.
    path = tmp_path / "s.jsonl.gz"
    with gzip.open(path, "wb") as f:
        f.write(b'{"blob": "' + b"A" * (24 << 20) + b'"}\n')
        f.write(b'{"type": "summary", "summary": "after the blob"}\n')
    stats = ReadStats()
    tracemalloc.start()
    try:
        lines = list(reader.iter_lines(path, stats, max_bytes=1 << 20))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [raw for _, raw in lines] == [None, b'{"type": "summary", "summary": "after the blob"}\n']
    assert stats.too_long == 1 and stats.damaged == []
    assert peak < 8 << 20, peak


def test_a_big_compressed_or_pretty_file_is_never_cut_at_byte_offsets(tmp_path):
    # Worker processes split a file at line starts found by byte offset: a gzip file's bytes
    # are not its lines, and a pretty-printed record spans many. Before: gzip went to workers.
    size = parallel.PARALLEL_MIN_BYTES + 1
    plain, packed, pretty = tmp_path / "plain.jsonl", tmp_path / "packed.jsonl.gz", tmp_path / "pretty.jsonl"
    for path, head in ((plain, b'{"type": "user"}\n'), (packed, gzip.compress(b'{"type": "user"}\n')),
                       (pretty, b'{\n  "type": "user"\n}\n')):
        with open(path, "wb") as f:
            f.write(head)
            f.truncate(size)  # sparse: the size is what decides
    assert parallel.use_workers(plain) == (parallel.worker_count() >= 2 and parallel.sys.platform.startswith("linux"))
    assert not parallel.use_workers(packed)
    assert not parallel.use_workers(pretty)


# --- pretty-printed JSONL (jq .) ------------------------------------------------------------


def _object_starts(path: Path) -> list[int]:
    return [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line == "{"]


@pytest.mark.parametrize("pretty, compact", [(PRETTY / "representative_messages.jq.jsonl", CLAUDE),
                                              (PRETTY / "rollout-codex.jq.jsonl", CODEX)],
                         ids=["claude-code", "codex"])
def test_a_jq_pretty_printed_session_reads_as_its_records(pretty, compact):
    # Before: read as a plain-text log (format "text", 1 event, no command).
    got, want = _seen(analyze_path(pretty)), _seen(analyze_path(compact))
    assert got["formats"] == want["formats"] and got["events"] == want["events"] > 1
    assert got["errors"] == want["errors"]
    # Same commands; each points at the line its record starts on in the pretty file.
    starts = _object_starts(pretty)
    assert [c[:3] for c in got["commands"]] == [c[:3] for c in want["commands"]] and got["commands"]
    assert [c[3] for c in got["commands"]] == [starts[line - 1] for *_, line in want["commands"]]


def test_pretty_records_carry_their_start_line_and_count_as_records(tmp_path):
    stats = ReadStats()
    pretty = PRETTY / "representative_messages.jq.jsonl"
    records = list(reader.iter_json_records(pretty, stats))
    compact = [json.loads(line) for line in CLAUDE.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert [obj for _, _, obj in records] == compact
    assert [index for index, _, _ in records] == list(range(len(compact)))
    assert [line for _, line, _ in records] == _object_starts(pretty)
    assert stats.records == len(compact) and stats.lines_skipped == 0
    assert stats.lines == len(pretty.read_text(encoding="utf-8").splitlines())


def test_a_pretty_file_cut_mid_object_keeps_the_objects_before(tmp_path):
    text = (PRETTY / "representative_messages.jq.jsonl").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    starts = _object_starts(PRETTY / "representative_messages.jq.jsonl")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[: starts[5] + 3]), encoding="utf-8")  # 5 whole objects, then 4 lines
    stats = ReadStats()
    records = list(reader.iter_json_records(cut, stats))
    assert len(records) == 5 and stats.broken_json == 1 and stats.records == 6
    assert analyze_path(cut).sessions[0]["format"] == "claude-code"


@pytest.mark.parametrize("variant", ["powershell-utf16", "utf8-bom-crlf", "gzip"])
def test_pretty_printed_as_windows_and_archives_keep_it(tmp_path, variant):
    # `jq . s.jsonl > out.jsonl` in Windows PowerShell 5 writes UTF-16LE with a BOM and CRLF.
    source = PRETTY / "representative_messages.jq.jsonl"
    text = source.read_text(encoding="utf-8")
    path = tmp_path / "s.jsonl"
    if variant == "powershell-utf16":
        path.write_bytes(codecs.BOM_UTF16_LE + text.replace("\n", "\r\n").encode("utf-16-le"))
    elif variant == "utf8-bom-crlf":
        path.write_bytes(codecs.BOM_UTF8 + text.replace("\n", "\r\n").encode())
    else:
        path = tmp_path / "s.jsonl.gz"
        path.write_bytes(gzip.compress(text.encode()))
    got = _seen(analyze_path(path))
    assert got == _seen(analyze_path(source)) and got["formats"] == ["claude-code"] and got["commands"]


def test_one_pretty_printed_chat_request_is_still_one_document(tmp_path):
    # A request body saved with `jq .`: one object whose "messages" array is the conversation.
    body = {"model": "m", "messages": [*_CHAT_CALL, {"role": "tool", "tool_call_id": "c1", "content": "ok"}]}
    path = tmp_path / "request.json"
    path.write_text(json.dumps(body, indent=2) + "\n")
    analysis = analyze_path(path)
    assert analysis.sessions[0]["format"] == "openai"
    assert [(c.command, c.host) for c in analysis.commands] == [("ssh gpu01 nvidia-smi", "gpu01")]


# --- lone surrogates ------------------------------------------------------------------------

_HALF_EMOJI = [
    {"type": "user", "timestamp": "2026-01-01T00:00:00Z", "sessionId": "s", "uuid": "u1", "parentUuid": None,
     "message": {"role": "user", "content": "accept len is 1.2 on gpu01 \ud83d"}},
    {"type": "assistant", "timestamp": "2026-01-01T00:00:01Z", "sessionId": "s", "uuid": "a1", "parentUuid": "u1",
     "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {
         "command": "ssh gpu01 'nvidia-smi'", "description": "check \ud83d"}}]}},
    {"type": "user", "timestamp": "2026-01-01T00:00:02Z", "sessionId": "s", "uuid": "u2", "parentUuid": "a1",
     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": True,
                                              "content": "Exit code 1\nRuntimeError: CUDA error \udc00"}]}},
]
_CODEX_HALF_EMOJI = [
    {"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
     "payload": {"id": "s1", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/w", "originator": "codex_cli_rs"}},
    {"timestamp": "2026-01-02T03:04:09.000Z", "type": "response_item", "payload": {
        "type": "function_call", "name": "shell", "call_id": "c1",
        "arguments": json.dumps({"command": ["bash", "-lc", "ssh gpu01 'echo \ud83d'"]})}},
    {"timestamp": "2026-01-02T03:04:10.000Z", "type": "response_item", "payload": {
        "type": "function_call_output", "call_id": "c1",
        "output": json.dumps({"output": "\ud83d", "metadata": {"exit_code": 1}})}},
]


@pytest.mark.parametrize("rows", [_HALF_EMOJI, _CODEX_HALF_EMOJI], ids=["claude-code", "codex-arguments"])
@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_half_an_emoji_does_not_stop_the_postmortem(tmp_path, rows, fmt):
    # JSON.stringify writes a lone surrogate as "\ud83d" (a string cut between the halves of
    # an emoji); json.dumps does the same. Before: UnicodeEncodeError traceback when the
    # postmortem or the JSON was written. Codex arguments are JSON inside a JSON string, so
    # the escape there is "\\ud83d" in the file.
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="ascii")
    assert "\\ud83d" in path.read_text()
    out = tmp_path / f"out.{fmt}"
    assert analyze_command(path, fmt, None, out) == 0
    written = out.read_text(encoding="utf-8")
    assert "\ufffd" in written or "\\ufffd" in written
    assert [c.host for c in analyze_path(path).commands] == ["gpu01"]


def test_surrogates_decoded_in_pairs_stay_one_character(tmp_path):
    # A whole emoji escaped as its two halves is one character, not two replacement marks.
    path = tmp_path / "s.jsonl"
    path.write_text('{"type": "summary", "summary": "done \\ud83d\\ude80 \\ud83d"}\n', encoding="ascii")
    [(_, _, obj)] = reader.iter_json_records(path, ReadStats())
    assert obj["summary"] == "done \U0001F680 \ufffd"



# --- a session slurped into one JSON array (jq -s .) --------------------------------------


@pytest.mark.parametrize("compact", [False, True], ids=["jq-s", "jq-cs"])
@pytest.mark.parametrize("sample", [CLAUDE, CODEX], ids=["claude-code", "codex"])
def test_a_session_slurped_into_one_array_reads_as_its_records(tmp_path, sample, compact):
    # `jq -s . session.jsonl > session.json` makes the JSONL one JSON document. Before: a
    # Claude Code one read as OpenAI chat messages (no command found), `-c` as a text log.
    records = [json.loads(line) for line in sample.read_text(encoding="utf-8").splitlines() if line.strip()]
    path = tmp_path / "session.json"
    path.write_text(json.dumps(records, separators=(",", ":")) if compact else json.dumps(records, indent=2))
    got, want = _seen(analyze_path(path)), _seen(analyze_path(sample))
    assert got["formats"] == want["formats"] and got["events"] == want["events"]
    assert [c[:3] for c in got["commands"]] == [c[:3] for c in want["commands"]] and got["commands"]
    stats = ReadStats()
    assert [obj for _, _, obj in reader.iter_json_records(path, stats)] == records
    assert stats.records == len(records)


def test_an_openai_messages_array_is_still_read_as_chat(tmp_path):
    messages = [*_CHAT_CALL, {"type": "function_call_output", "call_id": "c1", "output": "ok"}]  # Responses API item
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(messages, indent=2))
    analysis = analyze_path(path)
    assert analysis.sessions[0]["format"] == "openai" and [c.host for c in analysis.commands] == ["gpu01"]


# --- session folders with things that are no transcripts ----------------------------------


def test_dangling_links_folders_and_fifos_among_sub_agents_are_passed_by(tmp_path):
    # A session folder copied without what its symlinks pointed at, or with a FIFO left by a
    # tool. Before: FileNotFoundError / IsADirectoryError traceback, and a FIFO hung forever.
    import os
    import threading

    project = tmp_path / "project"
    shutil.copytree(SHOWCASE, project)
    subagents = project / SESSION_ID / "subagents"
    (subagents / "agent-gone.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    (subagents / "agent-dir.jsonl").mkdir()
    os.mkfifo(subagents / "agent-fifo.jsonl")
    (subagents / "loop").symlink_to("..")  # a symlink loop must not be walked either
    result: dict = {}

    def run() -> None:
        try:
            result["analysis"] = analyze_path(project)
        except BaseException as exc:  # reported below
            result["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "analysis hung on a FIFO among the sub-agent files"
    assert "error" not in result, result.get("error")
    agents = {a["id"]: (a["events"], a["status"]) for a in result["analysis"].agents}
    assert agents["showcol1"] == (2, "completed")
    assert not {"gone", "dir", "fifo"} & set(agents)


def test_gzip_keep_leaves_one_session_not_two(tmp_path):
    # `gzip -k s.jsonl` (or logrotate's copy) leaves s.jsonl and s.jsonl.gz side by side.
    # Before reading .gz: fine by accident; with it, the session would count twice.
    shutil.copy(CLAUDE, tmp_path / "s.jsonl")
    (tmp_path / "s.jsonl.gz").write_bytes(gzip.compress(CLAUDE.read_bytes()))
    (tmp_path / "notes.log").write_text("root@gpu01:~# nvidia-smi\n")
    (tmp_path / "notes.txt").write_text("root@gpu02:~# nvidia-smi\n")
    analysis = analyze_path(tmp_path)
    assert sorted(s["id"] for s in analysis.sessions) == ["notes.log", "notes.txt", "s"]
    assert analysis.stats["events"] == analyze_path(CLAUDE).stats["events"] + 2


@pytest.mark.parametrize("shape", ["jq", "jq-s", "jq-cs"])
def test_a_spread_session_whose_first_record_is_a_screenshot(tmp_path, shape):
    # The first prompt holds a pasted image (base64, 400 KB): no whole object fits in the
    # sniff window, yet its keys say Claude Code. Before: read as a text log (jq .) or as
    # OpenAI chat messages (jq -s .), no command found.
    first = {"type": "user", "timestamp": "2026-01-01T00:00:00Z", "parentUuid": None, "sessionId": "s",
             "uuid": "u0", "message": {"role": "user", "content": [
                 {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "A" * 400_000}},
                 {"type": "text", "text": "why is accept len 1.1 on gpu01?"}]}}
    call = {"type": "assistant", "timestamp": "2026-01-01T00:00:01Z", "sessionId": "s", "uuid": "a1",
            "parentUuid": "u0", "message": {"role": "assistant", "content": [
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ssh gpu01 nvidia-smi"}}]}}
    path = tmp_path / "s.jsonl"
    if shape == "jq":
        path.write_text(json.dumps(first, indent=2) + "\n" + json.dumps(call, indent=2) + "\n")
    else:
        path.write_text(json.dumps([first, call], indent=None if shape == "jq-cs" else 2))
    analysis = analyze_path(path)
    assert analysis.sessions[0]["format"] == "claude-code"
    assert [c.command for c in analysis.commands] == ["ssh gpu01 nvidia-smi"]
    if shape == "jq":
        assert analysis.commands[0].line == _object_starts(path)[1]


def test_a_compressed_chat_export_array_is_read(tmp_path):
    messages = [*_CHAT_CALL, {"role": "tool", "tool_call_id": "c1", "content": "ok"}]
    path = tmp_path / "chat.json.xz"
    path.write_bytes(lzma.compress(json.dumps({"messages": messages}, indent=2).encode()))
    analysis = analyze_path(path)
    assert analysis.sessions[0]["format"] == "openai" and [c.host for c in analysis.commands] == ["gpu01"]


def test_a_session_removed_while_the_folder_is_read_leaves_the_others(tmp_path):
    # Claude Code deletes sessions past cleanupPeriodDays from the folder being analyzed.
    # Before: FileNotFoundError traceback for the whole analysis.
    from spec_debug.session.agents import AgentTree
    from spec_debug.session.sources import discover, iter_events

    shutil.copy(CLAUDE, tmp_path / "old.jsonl")
    shutil.copy(CODEX, tmp_path / "rollout.jsonl")
    sources = discover(tmp_path)
    (tmp_path / "old.jsonl").unlink()
    read = {}
    for source in sources:
        stats = ReadStats()
        read[source.id] = (sum(1 for _ in iter_events(source, stats, AgentTree())), stats.damaged)
    assert read["old"] == (0, ["old.jsonl: cannot be read (No such file or directory); the events before it were kept"])
    assert read["rollout"][0] == analyze_path(CODEX).stats["events"] and read["rollout"][1] == []


# --- a JSONL file in a Windows code page -----------------------------------------------------


def test_a_jsonl_written_in_cp1252_keeps_its_non_ascii_lines(tmp_path):
    # A Python agent harness on Windows: open("run.jsonl", "w") is cp1252 there (PEP 686), and
    # json.dumps(..., ensure_ascii=False) writes "°C" and "µs" as single bytes. Before: those
    # lines were broken JSON and the command and the error in them were lost.
    messages = [
        {"role": "user", "content": "GPU at 91°C, decode step 850 µs: check gpu01"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "bash", "arguments": json.dumps({"command": "ssh gpu01 nvidia-smi --query-gpu=temperature.gpu"})}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "Température: 91°C\nRuntimeError: CUDA error: an illegal memory access"},
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in messages), encoding="cp1252")
    analysis = analyze_path(path)
    assert analysis.sessions[0]["format"] == "openai" and analysis.stats["broken_json"] == 0
    assert [c.host for c in analysis.commands] == ["gpu01"]
    assert [e.message for e in analysis.errors] == ["CUDA error: an illegal memory access"]
    stats = ReadStats()
    first = next(reader.iter_json_records(path, stats))[2]
    assert first["content"] == "GPU at 91°C, decode step 850 µs: check gpu01"


def test_a_binary_line_in_a_jsonl_is_still_skipped(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a": "' + bytes(range(0x80, 0xff)) + b'"}\n{"type": "summary", "summary": "ok"}\n')
    stats = ReadStats()
    assert [obj for _, _, obj in reader.iter_json_records(path, stats)] == [{"type": "summary", "summary": "ok"}]
    assert stats.broken_json == 1


def test_a_session_linked_into_an_incident_folder_keeps_its_sub_agents(tmp_path):
    # `ln -s ~/.claude/projects/<p>/<id>.jsonl incident-42/session.jsonl`: the sub-agents stay
    # in <id>/subagents/ beside the real file. Before: the sub-agent was "missing", 0 events.
    incident = tmp_path / "incident-42"
    incident.mkdir()
    (incident / "session.jsonl").symlink_to(SHOWCASE / f"{SESSION_ID}.jsonl")
    linked, direct = analyze_path(incident / "session.jsonl"), analyze_path(SHOWCASE / f"{SESSION_ID}.jsonl")
    assert _seen(linked)["agents"] == _seen(direct)["agents"]
    assert ("showcol1", 2) in _seen(linked)["agents"]
    assert analyze_path(incident).stats["events"] == direct.stats["events"]


@pytest.mark.parametrize("bom", [b"", codecs.BOM_UTF8], ids=["plain", "utf8-bom"])
def test_a_terminal_recording_with_half_an_emoji_renders(tmp_path, bom):
    # Browser-side recorders serialise xterm.js output chunks with JSON.stringify, which writes
    # an emoji cut between two chunks as "\ud83d" + "\ude80" in two events. Before: the
    # postmortem failed with UnicodeEncodeError.
    events = [[0.1, "o", "root@gpu01:~# nvidia-smi # \ud83d"], [0.2, "o", "\ude80 temps\r\n"],
              [0.4, "o", "RuntimeError: CUDA error: out of memory \ud83d\r\n"]]
    path = tmp_path / "s.cast"
    path.write_bytes(bom + (json.dumps({"version": 2, "width": 80, "height": 24, "timestamp": 1764482400}) + "\n"
                            + "".join(json.dumps(e) + "\n" for e in events)).encode())
    for fmt in ("md", "json"):
        assert analyze_command(path, fmt, None, tmp_path / f"postmortem.{fmt}") == 0
    analysis = analyze_path(path)
    assert [c.host for c in analysis.commands] == ["gpu01"] and analysis.stats["broken_json"] == 0
    assert len(analysis.errors) == 1 and "CUDA error: out of memory" in analysis.errors[0].message


@pytest.mark.parametrize("trunk", [b"", b"\x00" * 100_000], ids=["empty", "all-nul"])
def test_a_trunk_emptied_by_a_crash_still_shows_its_sub_agents(tmp_path, trunk):
    # A crash while Claude Code wrote the session left it empty, or as NUL bytes only
    # (anthropics/claude-code issue #76059); the sub-agents beside it are whole. Before: the
    # folder had "no transcript files found", and the trunk named alone read as an empty text log.
    project = tmp_path / "project"
    shutil.copytree(SHOWCASE, project)
    (project / f"{SESSION_ID}.jsonl").write_bytes(trunk)
    for path in (project, project / f"{SESSION_ID}.jsonl", project / SESSION_ID):
        analysis = analyze_path(path)
        assert analysis.sessions[0]["format"] == "claude-code", path
        assert ("showcol1", 2) in _seen(analysis)["agents"], path


# --- Codex's own zstd rollouts ------------------------------------------------------------


def _zstd_day_folder(tmp_path: Path) -> Path:
    """~/.codex/sessions/YYYY/MM/DD/ after Codex's compression worker ran: the rollout is
    rollout-*.jsonl.zst and the plain file is gone (openai/codex codex-rs/rollout/src/compression.rs)."""
    day = tmp_path / "sessions" / "2026" / "01" / "02"
    day.mkdir(parents=True)
    shutil.copy(CODEX, day / CODEX.name)
    subprocess.run(["zstd", "-q", "--rm", str(day / CODEX.name)], check=True)  # the real zstd tool
    return day


def test_a_codex_rollout_compressed_by_codex_is_read(tmp_path):
    # Before: the folder scan skipped *.jsonl.zst ("no transcript files found"), and the file
    # named alone was "a zstd archive, not a transcript".
    day = _zstd_day_folder(tmp_path)
    rollout = day / f"{CODEX.name}.zst"
    assert rollout.is_file() and not (day / CODEX.name).exists()
    want = _seen(analyze_path(CODEX))
    for path in (tmp_path, rollout):
        analysis = analyze_path(path)
        assert _seen(analysis) == want and analysis.sessions[0]["id"] == CODEX.stem, path


def test_a_cut_zstd_rollout_keeps_what_came_before(tmp_path):
    rows = []
    for i in range(600):
        rows.append({"timestamp": "2026-01-02T03:04:09.000Z", "type": "response_item", "payload": {
            "type": "function_call", "name": "exec_command", "call_id": f"c{i}",
            "arguments": json.dumps({"cmd": f"ssh gpu01 'nvidia-smi -i {i}'"})}})
        rows.append({"timestamp": "2026-01-02T03:04:10.000Z", "type": "response_item", "payload": {
            "type": "function_call_output", "call_id": f"c{i}", "output": f"{i * 7919 % 100003:x} " * 40}})
    plain = tmp_path / "rollout-2026-01-02T03-04-05-x.jsonl"
    plain.write_text("".join(json.dumps(r) + "\n" for r in rows))
    subprocess.run(["zstd", "-q", "--rm", str(plain)], check=True)
    packed = plain.with_name(plain.name + ".zst")
    whole = packed.read_bytes()
    packed.write_bytes(whole[: len(whole) // 2])
    analysis = analyze_path(packed)
    assert analysis.sessions[0]["format"] == "codex" and analysis.sessions[0]["damaged_files"] == 1
    assert 0 < len(analysis.commands) < 600
    assert [c.command for c in analysis.commands] == [f"ssh gpu01 'nvidia-smi -i {i}'"
                                                      for i in range(len(analysis.commands))]
    assert analysis.stats["broken_json"] == 1  # the line the cut went through


def test_without_the_zstd_command_a_zstd_rollout_is_one_clear_error(tmp_path, monkeypatch):
    day = _zstd_day_folder(tmp_path)
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # a machine without the zstd package
    for path in (day / f"{CODEX.name}.zst", tmp_path):
        with pytest.raises(UsageError, match="zstd-compressed .*the zstd command to read (it|them) is not installed") \
                as caught:
            analyze_path(path)
        assert "apt install zstd" in caught.value.hint
