"""A foreground Bash command that Claude Code moves to the background has not ended: its result
is a receipt, and the ``<task-notification>`` written when it exits says how it ended. Newer
CLIs (2.1.2xx) move a running command to the background when the person sends a message, so
the message can reach the model: ``Command was moved to the background (ID: …) so that a
message that arrived while it was running can reach you; it was not interrupted. Output is
being written to: …`` with ``toolUseResult {stdout, stderr, interrupted, backgroundTaskId,
backgroundedToDeliverMessage: true}`` (the fourth of the CLI's backgrounding receipts beside
run_in_background, Ctrl+B and the timeout, as several independent readers of its bundle and
their tests give them). The structured ``backgroundTaskId`` says so whatever the words: the
output printed before the move comes first in the text."""

from __future__ import annotations

import json

from spec_debug.session.analysis import analyze_path

SID = "b2020800-0000-4000-8000-0000000000a5"
LAUNCH = "ssh gpu01 'python -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3'"
TASKS = "/tmp/claude-1000/-home-user-w/" + SID + "/tasks/"


def _line(n: int, kind: str, **fields) -> dict:
    return {"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None, "sessionId": SID,
            "timestamp": f"2026-09-09T19:{n:02d}:00.000Z", "cwd": "/home/user/w", "isSidechain": False,
            "userType": "external", "entrypoint": "cli", "version": "2.1.240", **fields}


def _session(tmp_path, receipt: str, tool_result: dict) -> dict:
    lines = [
        _line(0, "user", message={"role": "user", "content": "start the EAGLE-3 server on gpu01"},
              origin={"kind": "human"}),
        _line(1, "assistant", requestId="req_1", message={"id": "msg_1", "type": "message", "role": "assistant",
                                                         "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                                                      "input": {"command": LAUNCH}}]}),
        _line(2, "user", toolUseResult=tool_result, message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": False, "content": receipt}]}),
        _line(3, "user", message={"role": "user", "content": (
            "<task-notification>\n<task-id>bq7x2k9m1</task-id>\n<tool-use-id>toolu_1</tool-use-id>\n"
            f"<output-file>{TASKS}bq7x2k9m1.output</output-file>\n<status>failed</status>\n"
            "<summary>Background command \"Launch EAGLE-3 server\" failed with exit code 1</summary>\n"
            "</task-notification>")}, origin={"kind": "task-notification"}),
    ]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return analyze_path(path).to_json()


def test_a_command_moved_to_the_background_for_a_message_ends_as_its_notification_says(tmp_path):
    receipt = ("Command was moved to the background (ID: bq7x2k9m1) so that a message that arrived while it "
               f"was running can reach you; it was not interrupted. Output is being written to: {TASKS}bq7x2k9m1"
               ".output. You will be notified when it completes. To check interim output, use Read on that file path.")
    doc = _session(tmp_path, receipt, {"stdout": "", "stderr": "", "interrupted": False, "isImage": False,
                                       "backgroundTaskId": "bq7x2k9m1", "backgroundedToDeliverMessage": True})
    assert [(c["seq"], c["host"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]] == [
        (1, "gpu01", 1, True, 3)]


def test_output_printed_before_the_move_does_not_hide_the_receipt(tmp_path):
    printed = "INFO: loading weights\nINFO: capturing cuda graphs"
    receipt = (f"{printed}\nCommand did not complete within its 120s timeout and was moved to the background (ID: "
               f"bq7x2k9m1). Output is being written to: {TASKS}bq7x2k9m1.output. You will be notified when it "
               "completes. To check interim output, use Read on that file path.")
    doc = _session(tmp_path, receipt, {"stdout": printed, "stderr": "", "interrupted": False, "isImage": False,
                                       "backgroundTaskId": "bq7x2k9m1", "timedOutAfterMs": 120000})
    assert [(c["seq"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]] == [(1, 1, True, 3)]


def test_a_foreground_command_that_ended_is_still_read_as_it_ended(tmp_path):
    doc = _session(tmp_path, "server exited", {"stdout": "server exited", "stderr": "", "interrupted": False,
                                                "isImage": False})
    # no receipt: the result is how it ended (exit 0); the note names a task this call never started
    assert [(c["seq"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]] == [(1, 0, False, 2)]
