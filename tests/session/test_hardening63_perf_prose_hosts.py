"""analyze: the host of a throughput stated in prose, as the end of the pass settles it.

A reading the agent states ("gpu02 does 88 tok/s now") is the host's it names, among the hosts
the session's commands ran on. The pass asks when the reading is read, and the end asks again
for those still without a host, now that every host is known. The end skips a reading asked
since the last new host (it would name none again): these pin the readings it must still ask,
a reading made before its host's first command, and a notes file's reading (stated, but never
asked when read), as well as the ones that stay without a host.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer


def _analyze(tmp_path, steps):
    w = _Writer("63630000-0000-4000-8000-0000000000b1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 is slow on our two servers, find out why.")
    for step in steps:
        if step[0] == "say":
            w.say(step[1])
        elif step[0] == "bash":
            w.bash(step[1], step[2])
        else:
            w.tool("Read", {"file_path": step[1]}, step[2])
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def _prose(a):
    return [(m.value, m.host) for m in a.metrics if m.source == "prose" and m.name == "throughput"]


def test_a_reading_said_before_its_hosts_first_command_gets_the_host_at_the_end(tmp_path):
    a = _analyze(tmp_path, [
        ("bash", "ssh gpu01 nvidia-smi -L", "GPU 0: NVIDIA H100"),
        ("say", "On gpu02 the drafter gives 61 tok/s, I will look there next."),  # gpu02: no command yet
        ("say", "On gpu01 the drafter gives 77 tok/s."),
        ("bash", "ssh gpu02 nvidia-smi -L", "GPU 0: NVIDIA H100"),
    ])
    assert _prose(a) == [(61.0, "gpu02"), (77.0, "gpu01")]


def test_a_reading_naming_no_host_stays_without_one(tmp_path):
    a = _analyze(tmp_path, [
        ("bash", "ssh gpu01 nvidia-smi -L", "GPU 0: NVIDIA H100"),
        ("say", "Checking gpu01 again; throughput was 64 tok/s."),  # the host is outside its sentence
        ("say", "The drafter gives 66 tok/s."),
        ("bash", "ssh gpu02 nvidia-smi -L", "GPU 0: NVIDIA H100"),
        ("say", "Checking gpu02 again; throughput was 68 tok/s."),
        ("say", "Throughput on gpu03 is 70 tok/s."),  # no command ran on gpu03
    ])
    assert _prose(a) == [(64.0, None), (66.0, None), (68.0, None), (70.0, None)]


def test_a_notes_file_read_after_every_host_is_known_gets_its_host_at_the_end(tmp_path):
    a = _analyze(tmp_path, [
        ("bash", "ssh gpu01 nvidia-smi -L", "GPU 0: NVIDIA H100"),
        ("bash", "ssh gpu02 nvidia-smi -L", "GPU 0: NVIDIA H100"),
        ("say", "The drafter gives 66 tok/s."),  # asked, named none, after the last new host
        ("read", "/root/NOTES.md", "# Notes\n\n- On gpu02 EAGLE-3 gave 58 tok/s.\n"),
    ])
    assert _prose(a) == [(66.0, None), (58.0, "gpu02")]
