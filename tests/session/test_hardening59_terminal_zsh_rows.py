"""zsh 5.9 typescripts (util-linux script 2.38.1) where what zsh echoes spans rows. zsh writes its
prompt, then the paste-on, and ends the typed line's row with the paste-off (its Enter).

A background job (``python3 srv.py &``) that prints while zsh waits writes after the prompt, and
the command then typed (``curl ...; sleep 3``) is echoed on the next row. Before: the job's line
was the command, ``curl ...; sleep 3`` lost. Now the command is the one typed, its own
"curl: (7)" its error, the job's traceback the job's.

A multi-line bracketed paste: zsh shows each pasted line highlighted on a row of its own, then
moves up and rewrites them a character at a time. Before: only the first line was the command
(``echo one``). Now the paste is one command of all its lines."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

JOB_PRINTS_AT_ZSH_PROMPT = b"".join([
    b'Script started on 2026-12-06 05:07:08+00:00 [COMMAND="zsh -f -i" TERM="xterm-256color" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b"\x1b[0m\x1b[27m\x1b[24m\x1b[Jvm# \x1b[K\x1b[?2004hP\x08PS1='ubuntu@gpu-node-7 ~/sglang %% '\x1b[?2004l\r",
    b'\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jubuntu@gpu-node-7 ~/sglang % \x1b[K\x1b[?2004hc\x08cd /tmp/terminal4-scratch/rec3\x1b[?2004l\r',
    b'\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jubuntu@gpu-node-7 ~/sglang % \x1b[K\x1b[?2004hp\x08python3 srv.py &\x1b[?2004l\r',
    b'\r\n',
    b'[1] 19025\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jubuntu@gpu-node-7 ~/sglang % \x1b[K\x1b[?2004hloading draft from /ckpt/eagle3\r\n',
    b'c\x08curl -sS -m 4 http://127.0.0.1:9/health; sleep 3\x1b[?2004l\r',
    b'\r\n',
    b"curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server\r\n",
    b'Traceback (most recent call last):\r\n',
    b'  File "/tmp/terminal4-scratch/rec3/srv.py", line 4, in <module>\r\n',
    b'    raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")\r\n',
    b'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\r\n',
    b'[1]  + exit 1     python3 srv.py\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jubuntu@gpu-node-7 ~/sglang % \x1b[K\x1b[?2004h\x1b[7mecho one\x1b[27m\r',
    b'\r\n',
    b'\x1b[7mecho two\x1b[27m\x1b[K\x1b[A\x1b[21C\x1b[27me\x1b[27mc\x1b[27mh\x1b[27mo\x1b[27m \x1b[27mo\x1b[27mn\x1b[27me\x1b[1B\r',
    b'\x1b[27me\x1b[27mc\x1b[27mh\x1b[27mo\x1b[27m \x1b[27mt\x1b[27mw\x1b[27mo\x1b[?2004l\r',
    b'\r\n',
    b'one\r\n',
    b'two\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jubuntu@gpu-node-7 ~/sglang % \x1b[K\x1b[?2004he\x08exit\x1b[?2004l\r',
    b'\r\n',
    b'\n',
    b'Script done on 2026-12-06 05:07:16+00:00 [COMMAND_EXIT_CODE="0"]\n',
])

ZSH_PASTES = b"".join([
    b'Script started on 2026-12-06 05:07:57+00:00 [COMMAND="zsh -f -i" TERM="xterm-256color" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b"\x1b[0m\x1b[27m\x1b[24m\x1b[Jvm# \x1b[K\x1b[?2004hP\x08PS1='ubuntu@gpu-node-7 ~/sglang %% '\x1b[?2004l\r",
    b'\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jubuntu@gpu-node-7 ~/sglang % \x1b[K\x1b[?2004h\x1b[7mecho one\x1b[27m\r',
    b'\r\n',
    b'\x1b[7mecho two\x1b[27m\x1b[K\r',
    b'\r\n',
    b'\x1b[7mecho three\x1b[27m\x1b[K\x1b[A\x1b[A\x1b[19C\x1b[27me\x1b[27mc\x1b[27mh\x1b[27mo\x1b[27m \x1b[27mo\x1b[27mn\x1b[27me\x1b[1B\r',
    b'\x1b[27me\x1b[27mc\x1b[27mh\x1b[27mo\x1b[27m \x1b[27mt\x1b[27mw\x1b[27mo\x1b[1B\r',
    b'\x1b[27me\x1b[27mc\x1b[27mh\x1b[27mo\x1b[27m \x1b[27mt\x1b[27mh\x1b[27mr\x1b[27me\x1b[27me\x1b[?2004l\r',
    b'\r\n',
    b'one\r\n',
    b'two\r\n',
    b'three\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jubuntu@gpu-node-7 ~/sglang % \x1b[K\x1b[?2004h\x1b[7mpython3 -c \'import sys; sys.exit("no draft checkpoi\x1b[7mn\x1b[7mt")\'\x1b[27m\x1b[K\r',
    b'\r\n',
    b'\x1b[7mecho done\x1b[27m\x1b[K\r',
    b'\r\n',
    b'\x1b[K\x1b[3A\x1b[29C\x1b[27mp\x1b[27my\x1b[27mt\x1b[27mh\x1b[27mo\x1b[27mn\x1b[27m3\x1b[27m \x1b[27m-\x1b[27mc\x1b[27m \x1b[27m\'\x1b[27mi\x1b[27mm\x1b[27mp\x1b[27mo\x1b[27mr\x1b[27mt\x1b[27m \x1b[27ms\x1b[27my\x1b[27ms\x1b[27m;\x1b[27m \x1b[27ms\x1b[27my\x1b[27ms\x1b[27m.\x1b[27me\x1b[27mx\x1b[27mi\x1b[27mt\x1b[27m(\x1b[27m"\x1b[27mn\x1b[27mo\x1b[27m \x1b[27md\x1b[27mr\x1b[27ma\x1b[27mf\x1b[27mt\x1b[27m \x1b[27mc\x1b[27mh\x1b[27me\x1b[27mc\x1b[27mk\x1b[27mp\x1b[27mo\x1b[27min\x1b[27mt\x1b[27m"\x1b[27m)\x1b[27m\'\x1b[1B\r',
    b'\x1b[27me\x1b[27mc\x1b[27mh\x1b[27mo\x1b[27m \x1b[27md\x1b[27mo\x1b[27mn\x1b[27me\x1b[1B\r',
    b'\x1b[K\x1b[?2004l\r',
    b'\r\n',
    b'no draft checkpoint\r\n',
    b'done\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                               \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jubuntu@gpu-node-7 ~/sglang % \x1b[K\x1b[?2004he\x08exit\x1b[?2004l\r',
    b'\r\n',
    b'\n',
    b'Script done on 2026-12-06 05:08:00+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def _doc(tmp_path: Path, data: bytes) -> dict:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    return analyze_path(path).to_json()


def test_a_command_typed_after_a_jobs_output_at_a_zsh_prompt(tmp_path: Path) -> None:
    doc = _doc(tmp_path, JOB_PRINTS_AT_ZSH_PROMPT)
    assert [c["command"] for c in doc["commands"]][3:] == [
        "python3 srv.py &", "curl -sS -m 4 http://127.0.0.1:9/health; sleep 3", "echo one\necho two", "exit"]
    seq = {c["command"]: c["seq"] for c in doc["commands"]}
    assert {(e["kind"], e["command_seq"]) for e in doc["errors"]} == {
        ("exit_code", seq["python3 srv.py &"]), ("cuda_oom", seq["python3 srv.py &"]),
        ("connection", seq["curl -sS -m 4 http://127.0.0.1:9/health; sleep 3"])}


def test_a_multi_line_paste_at_a_zsh_prompt_is_one_command(tmp_path: Path) -> None:
    doc = _doc(tmp_path, ZSH_PASTES)
    assert [c["command"] for c in doc["commands"]][2:] == [
        "echo one\necho two\necho three",
        "python3 -c 'import sys; sys.exit(\"no draft checkpoint\")'\necho done",
        "exit"]
    assert not doc["errors"]
