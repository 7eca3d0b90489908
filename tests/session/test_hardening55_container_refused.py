"""An OpenAI chat ``tool`` message records no exit status, so a command failed where its output
says so. A command sent into a container that docker or kubectl could not run there (the
container stopped or gone, the pod not found, the API server out of reach) printed only the
tool's refusal, which names no program: "Error: No such container: sglang", kubectl's "error:
unable to upgrade connection: container not found". It read as a call that went well, with no
error. Now it is a failed call with that line as its error, on the host it was sent to; a log
the command printed whose last line is a bare "error: ..." stays a reading that went well."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.chat_runs import write_chat_runs


def _chat(path: Path, runs: list[tuple[str, str]]) -> Path:
    return write_chat_runs(path, "The EAGLE-3 server on gpu07 got slow after the redeploy. Debug it.", runs)


def _calls(doc: dict) -> list[tuple]:
    errors = {e["command_seq"]: e for e in doc["errors"]}
    return [(c["container"], c["host"], c["is_error"], errors[c["seq"]]["message"] if c["seq"] in errors else None)
            for c in doc["commands"]]


def test_a_container_docker_or_kubectl_could_not_reach_is_a_failed_call(tmp_path):
    doc = analyze_path(_chat(tmp_path / "chat.json", [
        ("docker exec sglang-eagle nvidia-smi", "Error: No such container: sglang-eagle"),
        ("ssh gpu07 docker exec sglang-eagle python3 -c 'import sglang'",
         "Error response from daemon: container 3f2a9b7c is not running"),
        ("kubectl exec -it sglang-0 -c server -- nvidia-smi",
         'error: unable to upgrade connection: container not found ("server")'),
        ("kubectl exec -n serving sglang-1 -- cat /models/eagle3/config.json",
         'Error from server (NotFound): pods "sglang-1" not found'),
    ])).to_json()
    assert _calls(doc) == [
        ("docker:sglang-eagle", None, True, "Error: No such container: sglang-eagle"),
        ("docker:sglang-eagle", "gpu07", True, "Error response from daemon: container 3f2a9b7c is not running"),
        ("pod:sglang-0", None, True, 'error: unable to upgrade connection: container not found ("server")'),
        ("pod:sglang-1", None, True, 'Error from server (NotFound): pods "sglang-1" not found'),
    ]
    assert {e["kind"] for e in doc["errors"]} == {"tool_error"}


def test_a_log_read_in_a_pod_that_ends_in_an_error_line_did_not_fail(tmp_path):
    doc = analyze_path(_chat(tmp_path / "chat.json", [
        ("kubectl exec sglang-0 -- cat /tmp/draft_check.log", "loading draft weights\nerror: 0 of 10 layers differ"),
        ("docker exec sglang-eagle nvidia-smi -L", "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)"),
    ])).to_json()
    assert [(c["container"], c["is_error"]) for c in doc["commands"]] == [
        ("pod:sglang-0", False), ("docker:sglang-eagle", False)]
    assert doc["errors"] == []
