"""A step's line on the console is one line of bounded width; run.json keeps the whole message.

A failed `contains:` of a pasted log line, or a `that:` comparing stdout with a long text,
printed the step's whole message on its progress line (3,000 characters: in a terminal,
screens of wrapped text before the next step), while the finding under it was already cut at
300 characters (runner_findings.TITLE_LIMIT). A `that:` written over several lines (a YAML `|`
block) broke the step's line, and its finding's, into pieces, the later ones at column 0 with
no host or status. The console now shows at most NOTE_LIMIT characters of the message on one
line, saying how much more run.json and the report hold; a probe's hint stays on the line
under it. Through the real CLI.
"""

from __future__ import annotations

from spec_debug.cli_progress import NOTE_LIMIT, _step_note
from tests.conftest import only_run, run_cli

NEEDLE = "x" * 3000
PLAYBOOK = f"""\
name: p
steps:
  - id: needle
    run: echo hello
    expect:
      - contains: "{NEEDLE}"
  - id: compared
    run: echo hello
    expect:
      - that: stdout.strip() == "{"y" * 3000}"
  - id: folded
    run: echo 1
    expect:
      - that: |
          (stdout | int)
          > 3
"""


def test_a_long_message_is_cut_on_the_console_and_kept_whole_in_the_record(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 1, result.stderr
    lines = result.stderr.splitlines()
    step_lines = {line.split()[1]: line for line in lines if line.split()[:1] in (["failed"], ["error"])}
    assert set(step_lines) == {"needle", "compared", "folded"}, lines
    messages = {s["id"]: s["message"] for s in record["steps"]}
    for step_id in ("needle", "compared"):
        whole = messages[step_id]
        assert len(whole) > 3000  # the record keeps it
        shown = whole[:NOTE_LIMIT]
        assert step_lines[step_id].endswith(f" {shown}… ({len(whole) - NOTE_LIMIT:,} characters more in run.json "
                                            "and the report)"), step_lines[step_id][:400]
    assert NEEDLE in (run_dir / "report.md").read_text()
    # The folded expression: the step's line and its finding's, each whole on one line.
    assert messages["folded"] == "expected that (stdout | int)\n> 3\n, observed False"
    assert step_lines["folded"].endswith(") expected that (stdout | int) > 3 , observed False"), step_lines["folded"]
    assert "        SD001 Step 'folded': expected that (stdout | int) > 3 , observed False" in lines
    assert "> 3" not in lines and ", observed False" not in lines  # no piece on a line of its own
    # Every line the run printed is bounded (the report paths of the verdict line aside).
    assert all(len(line) < 500 for line in lines[:-1]), max(len(line) for line in lines)


def test_a_probes_hint_stays_on_the_line_under_its_message():
    message = "probe host_info printed no JSON (exit code 1)\n  hint: name the host's Python with --var python=PATH"
    assert _step_note(message) == message
    assert _step_note("a\nb\n  hint: c\nd") == "a b\n  hint: c d"
    long_hint = "h" * 400
    assert _step_note(f"m\n  hint: {long_hint}") == f"m\n  hint: {'h' * NOTE_LIMIT}… (100 characters more in run.json and the report)"
