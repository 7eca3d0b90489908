"""A typescript whose script(1) marks give a time at the edge of the calendar is still read."""

from pathlib import Path

from spec_debug.session.formats import typescript_marks


def test_mark_past_year_9999_in_utc_has_no_time_and_raises_nothing():
    mark = typescript_marks.parse('Script started on 9999-12-31 23:59:59-01:00 [TERM="xterm"]')
    assert mark is not None and mark.started and mark.timestamp is None
    done = typescript_marks.parse('Script done on 0001-01-01 00:00:00+05:00 [COMMAND_EXIT_CODE="1"]')
    assert done is not None and done.exit_code == 1 and done.timestamp is None


def test_ordinary_mark_keeps_its_utc_time():
    mark = typescript_marks.parse('Script started on 2025-08-18 10:02:11+02:00 [TERM="xterm"]')
    assert mark.timestamp == "2025-08-18T08:02:11Z"


def test_analyze_reads_such_a_typescript(tmp_path: Path):
    from spec_debug.session.analysis import analyze_path

    log = tmp_path / "typescript.log"
    log.write_text('Script started on 9999-12-31 23:59:59-01:00 [TERM="xterm"]\n'
                   "$ ls\nfoo\n"
                   'Script done on 9999-12-31 23:59:59-01:00 [COMMAND_EXIT_CODE="0"]\n')
    analysis = analyze_path(log)
    assert analysis.commands
