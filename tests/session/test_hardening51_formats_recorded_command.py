"""``asciinema rec -c "bash launch.sh" launch.cast`` records one command instead of a shell: the
header names it (``command``, asciicast v2 and v3: docs.asciinema.org/manual/asciicast/v2, /v3)
and asciinema 3's v3 file ends with the exit event, ``[t, "x", "1"]``, its exit status. No
prompt shows the command, so the recording read as output of no command: the launch and its
flags were lost, and its traceback a failure with no command and no status."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

LAUNCH = "bash -c 'python3 -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3'"
OUTPUT = ["[2025-10-01 10:00:01] server_args=ServerArgs(model_path='/models/llama')\r\n",
          "Traceback (most recent call last):\r\n",
          '  File "/usr/lib/python3/dist-packages/sglang/srt/speculative/eagle_worker.py", line 88, in __init__\r\n',
          "    self.hot_token_id = load_token_map(server_args.speculative_token_map)\r\n",
          "ValueError: draft vocab 32000 does not match the target's 128256\r\n"]


def _cast(tmp_path: Path, header: dict, events: list) -> Path:
    path = tmp_path / "launch.cast"
    path.write_text("".join(json.dumps(x) + "\n" for x in [header, *events]))
    return path


def test_a_v3_recording_of_one_command_is_that_command_with_its_status(tmp_path: Path) -> None:
    header = {"version": 3, "term": {"cols": 120, "rows": 40}, "timestamp": 1759312800, "command": LAUNCH}
    path = _cast(tmp_path, header, [[0.5, "o", line] for line in OUTPUT] + [[0.2, "x", "1"]])
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(LAUNCH, 1, True)]
    assert doc["commands"][0]["timestamp"] == "2025-10-01T10:00:00Z"
    assert [(e["exception"], e["command_seq"]) for e in doc["errors"]] == [("ValueError", doc["commands"][0]["seq"])]


def test_a_v2_recording_of_one_command_gives_the_command(tmp_path: Path) -> None:
    header = {"version": 2, "width": 120, "height": 40, "timestamp": 1759312800, "command": LAUNCH}
    doc = analyze_path(_cast(tmp_path, header, [[0.5 + n, "o", line] for n, line in enumerate(OUTPUT)])).to_json()
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(LAUNCH, None, True)]


def test_a_recorded_shell_is_a_session_whose_prompts_show_the_commands(tmp_path: Path) -> None:
    header = {"version": 3, "term": {"cols": 120, "rows": 40}, "command": "/bin/bash -l"}
    events = [[0.1, "o", "root@gpu01:~# nvidia-smi -L\r\n"], [0.1, "o", "GPU 0: NVIDIA H100 80GB HBM3\r\n"],
              [0.1, "o", "root@gpu01:~# exit\r\n"], [0.1, "x", "0"]]
    doc = analyze_path(_cast(tmp_path, header, events)).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [("nvidia-smi -L", "gpu01"), ("exit", "gpu01")]
