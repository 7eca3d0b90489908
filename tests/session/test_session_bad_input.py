"""Bad input never ends in a traceback: each case is analyzed through the real CLI and the
skips are reported (issue #6, "Bad input")."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from spec_debug.session import analyze_path, reader

DATA = Path(__file__).resolve().parent.parent / "data" / "transcripts"
SHOWCASE = DATA / "claude-code" / "minimal_showcase"


def _claude_line(n: int, text: str) -> str:
    return json.dumps({"type": "user", "uuid": f"u{n}", "sessionId": "s", "timestamp": "2026-01-01T00:00:00Z",
                       "message": {"role": "user", "content": [{"type": "text", "text": text}]}})


def _analyze_cli(cli, path: Path, tmp_path: Path) -> tuple[dict, str]:
    out = tmp_path / "analysis.json"
    result = cli("analyze", str(path), "--format", "json", "-o", str(out))
    assert "Traceback" not in result.stderr + result.stdout
    assert result.code == 0, result.stderr
    return json.loads(out.read_text()), result.stderr


def test_empty_file(cli, tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    doc, err = _analyze_cli(cli, path, tmp_path)
    assert doc["stats"]["events"] == 0 and doc["stats"]["lines_skipped"] == 0
    assert "0 events in 1 session; 0 lines skipped" in err
    md = cli("analyze", str(path))
    assert md.code == 0 and "No coded finding" in md.stdout


def test_binary_garbage(cli, tmp_path):
    rng = random.Random(6)
    path = tmp_path / "garbage.bin.log"
    path.write_bytes(bytes(rng.randrange(256) for _ in range(64 * 1024)))
    doc, err = _analyze_cli(cli, path, tmp_path)
    lines = doc["stats"]["lines"]
    assert doc["format"] == "text" and lines > 100
    # a few short runs of random bytes happen to be valid UTF-8; they are read as text
    assert doc["stats"]["binary"] == doc["stats"]["lines_skipped"] and doc["stats"]["binary"] >= 0.9 * lines
    skipped = doc["stats"]["lines_skipped"]
    assert f"{skipped} line{'' if skipped == 1 else 's'} skipped" in err and f"binary {doc['stats']['binary']}" in err


def test_truncated_last_line(cli, tmp_path):
    whole = [_claude_line(i, f"message {i}") for i in range(5)]
    path = tmp_path / "truncated.jsonl"
    path.write_text("\n".join(whole) + "\n" + whole[0][:57], encoding="utf-8")
    doc, err = _analyze_cli(cli, path, tmp_path)
    assert (doc["stats"]["events"], doc["stats"]["broken_json"], doc["stats"]["lines_skipped"]) == (5, 1, 1)
    assert "broken JSON 1" in err


def test_non_object_json_lines(cli, tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([_claude_line(0, "hi"), "42", "[1, 2]", '"text"', "null", _claude_line(1, "bye")]) + "\n")
    doc, err = _analyze_cli(cli, path, tmp_path)
    assert doc["format"] == "claude-code"
    assert (doc["stats"]["events"], doc["stats"]["non_object"], doc["stats"]["lines_skipped"]) == (2, 4, 4)
    # the skipped lines still hold their message numbers, so later seqs stay stable
    assert [p["seq"] for p in doc["prompts"]] == [0, 5]


def test_referenced_but_missing_subagent(cli, tmp_path):
    copy = tmp_path / "showcase"
    shutil.copytree(SHOWCASE, copy)
    session = next(copy.glob("*.jsonl"))
    (session.parent / session.stem / "subagents" / "agent-showcol1.jsonl").unlink()
    doc, err = _analyze_cli(cli, session, tmp_path)
    status = {a["id"]: a["status"] for a in doc["agents"]}
    assert status == {"main": "completed", "showcol1": "missing", "showcol2": "missing"}
    assert doc["stats"]["missing_files"] == 2 and "2 sub-agent files missing" in err


def test_a_200000_character_single_line(cli, tmp_path):
    """One JSONL line whose tool output is 200,000 characters, ending in a traceback."""
    output = "x" * 199_800 + "\nTraceback (most recent call last):\n  File \"/srv/a.py\", line 3, in <module>\nValueError: bad"
    lines = [
        json.dumps({"type": "assistant", "uuid": "a", "sessionId": "s", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "python /srv/a.py"}}]}}),
        json.dumps({"type": "user", "uuid": "b", "sessionId": "s", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "Exit code 1\n" + output, "is_error": True}]}}),
    ]
    assert len(lines[1]) > 200_000
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(lines) + "\n")
    doc, _ = _analyze_cli(cli, path, tmp_path)
    assert [(e["exception"], e["file"], e["line"]) for e in doc["errors"]] == [("ValueError", "/srv/a.py", 3)]

    text = tmp_path / "long.txt"
    text.write_text("y" * 200_000)  # no newline at all
    doc, _ = _analyze_cli(cli, text, tmp_path)
    assert (doc["format"], doc["stats"]["events"], doc["stats"]["lines_skipped"]) == ("text", 1, 0)


def test_lines_over_the_limit_are_skipped_in_bounded_memory(tmp_path, monkeypatch):
    monkeypatch.setattr(reader, "MAX_LINE_BYTES", 1000)
    path = tmp_path / "huge.jsonl"
    path.write_text("\n".join([_claude_line(0, "a"), _claude_line(1, "b" * 5000), _claude_line(2, "c")]) + "\n")
    a = analyze_path(path)
    assert (a.stats["events"], a.stats["too_long"], a.stats["lines_skipped"]) == (2, 1, 1)
    assert [p.seq for p in a.prompts] == [0, 2]  # the skipped line keeps its place in the numbering


def test_truncated_json_array(tmp_path):
    messages = [{"role": "user", "content": "check gpu01"},
                {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "bash", "arguments": "{\"command\": \"ssh gpu01 nvidia-smi\"}"}}]}]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(messages + [{"role": "tool", "tool_call_id": "c"}])[:-20])
    a = analyze_path(path)
    assert a.format == "openai" and a.stats["broken_json"] == 1
    assert [(c.host, c.command) for c in a.commands] == [("gpu01", "ssh gpu01 nvidia-smi")]


@pytest.mark.parametrize("args, message", [
    (["analyze", "/no/such/transcript"], "no such file or directory"),
    (["analyze", ".", "--input-format", "yaml"], "yaml"),
])
def test_usage_errors_are_one_line(cli, args, message):
    result = cli(*args)
    assert result.code == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_records_past_the_cap_keep_the_start_and_the_end(tmp_path, monkeypatch):
    from spec_debug.session import records

    monkeypatch.setattr(records, "MAX_RECORDS", 10)
    lines = [_claude_line(i, f"run {i}: {50 + i} tok/s") for i in range(30)]
    a = analyze_path(_write_lines(tmp_path, lines))
    assert [m.value for m in a.metrics] == [50, 51, 52, 53, 54, 75, 76, 77, 78, 79]
    assert a.stats["records_dropped"] == 20 + 20  # 20 metrics and 20 prompts over the cap


def _write_lines(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_empty_path_is_a_usage_error_not_the_current_directory(tmp_path):
    from tests.conftest import run_cli

    (tmp_path / "config.json").write_text('{"hidden_size": 7168}')
    for command in (["analyze", ""], ["distill", "", "-o", str(tmp_path / "p.yaml")]):
        result = run_cli(*command, cwd=tmp_path)
        assert result.code == 2 and "PATH is empty" in result.stderr and "Traceback" not in result.stderr


def test_a_directory_scan_skips_json_files_that_are_not_transcripts(tmp_path):
    import json as _json

    from tests.conftest import run_cli

    (tmp_path / "config.json").write_text(_json.dumps({"hidden_size": 7168, "num_hidden_layers": 61}))
    (tmp_path / "notes.log").write_text("ssh root@gpu01 'nvidia-smi'\n54.8 tok/s against a 90 tok/s baseline\n")
    result = run_cli("analyze", str(tmp_path), "--format", "json")
    assert result.code == 0, result.stderr
    assert [s["id"] for s in _json.loads(result.stdout)["sessions"]] == ["notes"]


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_a_throughput_without_a_baseline_renders_the_postmortem(cli, tmp_path, fmt):
    # The impact section tests the baseline; a session that measured tok/s but never named a
    # baseline (common) must still render under the templates' StrictUndefined.
    path = tmp_path / "bench.log"
    path.write_text("root@gpu01:~# python bench_serving.py --backend sglang\n"
                    "Output token throughput (tok/s):         54.8\n"
                    "root@gpu01:~# python bench_serving.py --backend sglang\n"
                    "Output token throughput (tok/s):         61.2\n", encoding="utf-8")
    result = cli("analyze", str(path), "--format", fmt)
    assert result.code == 0, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "54.8" in result.stdout and "61.2" in result.stdout and "Baseline without speculation" not in result.stdout


@pytest.mark.parametrize("command", [("analyze", "--format", "md"), ("distill",)])
def test_an_output_path_that_cannot_be_written_is_one_line(cli, tmp_path, command):
    """-o under a path that is a file (or on a read-only mount): one line, exit 3, no traceback."""
    from tests.session.incident_story import write_story

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    session = write_story(tmp_path / "projects").session_file  # has commands worth distilling
    result = cli(*command, str(session), "-o", str(blocker / "out.txt"))
    assert "Traceback" not in result.stderr
    assert result.code == 3 and result.stderr.startswith("error: cannot create the folder"), result.stderr
