"""Where no exit status is recorded (an OpenAI chat ``tool`` message), a restart of the
inference server's unit that systemd could not do printed only systemctl's words, which name no
program: "Job for sglang.service failed because the control process exited with error code."
(systemd src/shared/bus-wait-for-jobs.c) or "Failed to restart sglang.service: Unit
sglang.service not found." (src/systemctl/systemctl-start-unit.c). It read as a restart that went
well. Now it is a failed call with that line as its error, on the host it was sent to."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.chat_runs import write_chat_runs

JOB_FAILED = ('Job for sglang.service failed because the control process exited with error code.\n'
              'See "systemctl status sglang.service" and "journalctl -xeu sglang.service" for details.')


def _chat(path: Path, runs: list[tuple[str, str]]) -> Path:
    return write_chat_runs(path, "Restart the EAGLE-3 server on gpu07 with the new draft.", runs)


def test_a_unit_systemd_could_not_restart_is_a_failed_call(tmp_path):
    doc = analyze_path(_chat(tmp_path / "chat.json", [
        ("ssh gpu07 'sudo systemctl restart sglang'", JOB_FAILED),
        ("ssh gpu08 sudo systemctl restart sglang-eagle", "Failed to restart sglang-eagle.service: Unit sglang-eagle.service not found."),
        ("ssh gpu09 sudo systemctl restart sglang", ""),
    ])).to_json()
    errors = {e["command_seq"]: (e["kind"], e["message"], e["host"]) for e in doc["errors"]}
    assert [(c["host"], c["is_error"], errors.get(c["seq"])) for c in doc["commands"]] == [
        ("gpu07", True, ("tool_error", JOB_FAILED.split("\n")[0], "gpu07")),
        ("gpu08", True, ("tool_error", "Failed to restart sglang-eagle.service: Unit sglang-eagle.service not found.",
                         "gpu08")),
        ("gpu09", False, None),
    ]
