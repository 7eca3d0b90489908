"""starship's default prompt on the local machine shows the folder on its first line and the
``❯`` the command is typed after on the second; the commands ran in that folder.

With no ssh session starship shows no user or host: the first line is its directory module
(``~/work/eagle``, then `` on  main`` and the rest), the second its character module (``❯``).
Before, the first line was taken out of the output as a prompt's row, but the folder it shows
was dropped: every command there had no cwd, so a playbook step made from ``python3 bench.py``
could not say where to run it. Now the command has the folder the row starts with; a folder
starship shows from a repository's root (``eagle/python``) is no whole path and gives none. The
typescript is a bash 5.2 session recorded with util-linux script 2.38 whose PS1 prints
starship's default text (starship/starship src/configs/directory.rs: truncation_length 3,
truncate_to_repo; src/configs/git_branch.rs: " on [$symbol$branch]")."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TYPESCRIPT = b"".join([
    b'Script started on 2026-12-07 21:02:11+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" TTY="/dev/pts/1" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2$ export PS1='\\n\\w on \xee\x82\xa0 main \\n\xe2\x9d\xaf '\r\n",
    b'\x1b[?2004l\r\x1b[?2004h\r\r\n',
    b'~/work/eagle on \xee\x82\xa0 main \r\r\n',
    b'\xe2\x9d\xaf python3 bench.py --port 30000 --num-prompts 16\r\n',
    b'\x1b[?2004l\routput throughput: 181.70 tok/s\r\n',
    b'\x1b[?2004h\r\r\n',
    b'~/work/eagle on \xee\x82\xa0 main \r\r\n',
    b'\xe2\x9d\xaf cd /opt/sglang/python\r\n',
    b'\x1b[?2004l\r\x1b[?2004h\r\r\n',
    b'/opt/sglang/python on \xee\x82\xa0 main \r\r\n',
    b'\xe2\x9d\xaf ls sglang/srt/speculative | head -2\r\n',
    b'\x1b[?2004l\r__init__.py\r\neagle_utils.py\r\n',
    b'\x1b[?2004h\r\r\n',
    b'eagle/python on \xee\x82\xa0 main \r\r\n',
    b'\xe2\x9d\xaf exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-07 21:02:19+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_commands_run_in_the_folder_starships_first_line_shows(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TYPESCRIPT)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"], c["cwd"]) for c in doc["commands"]][2:] == [
        ("python3 bench.py --port 30000 --num-prompts 16", None, "~/work/eagle"),
        ("cd /opt/sglang/python", None, "~/work/eagle"),
        ("ls sglang/srt/speculative | head -2", None, "/opt/sglang/python"),
        ("exit", None, None)]
    assert [(m["name"], m["value"]) for m in doc["metrics"]] == [("throughput", 181.7)]
