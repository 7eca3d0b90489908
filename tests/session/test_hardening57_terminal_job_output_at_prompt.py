"""A background job that prints while bash waits at its prompt writes on the prompt's row, and the
command then typed is echoed on the rows after its output; readline turns bracketed paste off
(``\x1b[?2004l``) only as Enter is read. ``python3 srv.py &`` printed "loading draft from
/ckpt/eagle3" there, then ``sleep 3`` was typed. Before: the job's line was read as the command
typed and ``sleep 3`` was lost; now ``sleep 3`` is the command and the line the job's output. A
pasted multi-line command (readline's own rows, each after a carriage return) is read as before.
The typescripts are bash 5.2.15 sessions recorded with util-linux script 2.38.1."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

JOB_PRINTS_AT_PROMPT = b"".join([
    b'Script started on 2026-12-06 02:45:52+00:00 [COMMAND="bash --norc --noprofile -i" <not executed on terminal>]\n',
    b"\x1b[?2004hbash-5.2# export PS1='ubuntu@gpu-node-7:~/sglang$ '\r\n",
    b'\x1b[?2004l\r',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ cd /tmp/terminal2-scratch/rec\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ python3 srv.py &\r\n',
    b'\x1b[?2004l\r',
    b'[1] 6731\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ loading draft from /ckpt/eagle3\r\n',
    b'sleep 3\r\n',
    b'\x1b[?2004l\r',
    b'Traceback (most recent call last):\r\n',
    b'  File "/tmp/terminal2-scratch/rec/srv.py", line 4, in <module>\r\n',
    b'    raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")\r\n',
    b'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\r\n',
    b'nvidia-smi -L 2>/dev/null; echo gpus\r\n',
    b'exit\r\n',
    b'[1]+  Exit 1                  python3 srv.py\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ nvidia-smi -L 2>/dev/null; echo gpus\r\n',
    b'\x1b[?2004l\r',
    b'gpus\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-06 02:45:58+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_a_command_typed_after_a_jobs_output_on_the_prompt_row_is_read(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(JOB_PRINTS_AT_PROMPT)
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]][3:] == [
        "python3 srv.py &", "sleep 3", "nvidia-smi -L 2>/dev/null; echo gpus", "exit"]
    job = next(c for c in doc["commands"] if c["command"] == "python3 srv.py &")
    assert (job["is_error"], job["exit_code"]) == (True, 1)
    assert "cuda_oom" in {e["kind"] for e in doc["errors"]}
