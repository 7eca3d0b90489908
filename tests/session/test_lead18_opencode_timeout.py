"""OpenCode's bash tool kills a command at its timeout and still ends the part "completed",
with a null exit and its note appended to the output (the shape of real exported sessions:
``<shell_metadata>\\nshell tool terminated command after exceeding timeout 120000 ms. ...``).
That call failed: it is a timeout error, not a success."""

from __future__ import annotations

from spec_debug.session import analyze_path
from tests.session.test_hardening21_formats_opencode import PROJECT, SESSION, _bash, _write

NOTE = ("\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout 120000 ms. If this command "
        "is expected to take longer and is not waiting for interactive input, retry with a larger timeout value "
        "in milliseconds.\n</shell_metadata>")


def _storage(root, *parts):
    storage = root / "storage"
    _write(storage / "session" / PROJECT / f"{SESSION}.json",
           {"id": SESSION, "version": "1.0.20", "projectID": PROJECT, "directory": "/work/spec", "title": "serve",
            "time": {"created": 1767812640000, "updated": 1767812700000}})
    _write(storage / "message" / SESSION / "msg_a.json",
           {"id": "msg_a", "sessionID": SESSION, "role": "assistant", "time": {"created": 1767812642000}})
    for part in parts:
        _write(storage / "part" / "msg_a" / f"{part['id']}.json", part)
    return storage


def test_a_command_killed_at_the_tools_timeout_failed(tmp_path):
    storage = _storage(tmp_path,
                       _bash(1, "msg_a", "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B", None,
                             "Loading safetensors checkpoint shards: 100%" + NOTE),
                       _bash(2, "msg_a", "nohup ./serve.sh &", None, "(no output)"),
                       _bash(3, "msg_a", "nvidia-smi", 0, "GPU 0: NVIDIA H100"))
    doc = analyze_path(storage).to_json()
    assert [(c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(None, True), (None, False), (0, False)]
    (error,) = doc["errors"]
    assert error["kind"] == "timeout" and "exceeding timeout 120000 ms" in error["message"]
