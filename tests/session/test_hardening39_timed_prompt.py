"""analyze: a terminal log whose prompt shows the time (PS1='[\\t] \\u@\\h:\\w\\$ ', bash(1) PROMPTING)
is read as any other prompt: its commands, their host and their output.

Before: "[10:00:01] root@gpu03:~# tail -n 1 /var/log/sglang.log" was no prompt, so the log had no
command at all and the server log's readings were on no host.
"""

from __future__ import annotations

from spec_debug.session import analyze_path

DECODE = ("[2026-03-01 10:00:30 TP0] Decode batch, #running-req: 8, #token: 4096, token usage: 0.05, accept len: 1.71, "
          "accept rate: 0.71, cuda graph: True, gen throughput (token/s): 512.40, #queue-req: 0")


def test_a_prompt_with_the_time_is_a_prompt(tmp_path):
    path = tmp_path / "oncall.log"
    path.write_text("[10:00:01] root@gpu03:~# tail -n 1 /var/log/sglang.log\n"
                    f"{DECODE}\n"
                    "[10:00:09] root@gpu03:~# nvidia-smi -L\n"
                    "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e1c)\n"
                    "[10:01] (venv) me@gpu04:~/sglang$ python -c 'import sglang; print(sglang.__version__)'\n"
                    "0.4.6.post1\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.command) for c in a.commands] == [
        ("gpu03", "tail -n 1 /var/log/sglang.log"), ("gpu03", "nvidia-smi -L"),
        ("gpu04", "python -c 'import sglang; print(sglang.__version__)'")]
    assert [(m.name, m.value, m.host) for m in a.metrics] == [
        ("throughput", 512.4, "gpu03"), ("accept_length", 1.71, "gpu03"), ("accept_rate", 0.71, "gpu03")]


def test_a_log_line_with_a_time_is_still_output(tmp_path):
    path = tmp_path / "server.log"
    path.write_text("me@gpu05:~$ tail -n 2 /tmp/server.log\n"
                    "[10:00:01] INFO: started on gpu05\n"
                    "[10:00:02] admin@gpu05 logged in\n", encoding="utf-8")
    assert [(c.host, c.command) for c in analyze_path(path).commands] == [("gpu05", "tail -n 2 /tmp/server.log")]
