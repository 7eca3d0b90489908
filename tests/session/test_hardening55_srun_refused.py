"""Where no exit status is recorded (an OpenAI chat ``tool`` message), a command Slurm could not
run on the node it was sent to (``srun -w gpu07 nvidia-smi``) printed only srun's words, "srun:
error: Unable to allocate resources: ...", under srun's name, not the command's: it read as a
call that went well, with no error. Now it is a failed call with srun's line as its error, on
that node; srun's notes of a run that went on ("srun: job 4211 queued and waiting for
resources") are none."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.chat_runs import write_chat_runs

REFUSED = "srun: error: Unable to allocate resources: Requested node configuration is not available"


def _chat(path: Path, runs: list[tuple[str, str]]) -> Path:
    return write_chat_runs(path, "Check the GPUs of the EAGLE-3 node gpu07 through Slurm.", runs)


def test_a_command_srun_could_not_place_on_its_node_failed(tmp_path):
    doc = analyze_path(_chat(tmp_path / "chat.json", [
        ("srun -w gpu07 --gres=gpu:8 nvidia-smi -L", REFUSED),
        ("srun -w gpu08 nvidia-smi -L", "srun: job 4211 queued and waiting for resources\n"
                                        "srun: job 4211 has been allocated resources\nGPU 0: NVIDIA H100 80GB HBM3"),
    ])).to_json()
    errors = {e["command_seq"]: (e["kind"], e["message"], e["host"]) for e in doc["errors"]}
    assert [(c["host"], c["is_error"], errors.get(c["seq"])) for c in doc["commands"]] == [
        ("gpu07", True, ("tool_error", REFUSED, "gpu07")),
        ("gpu08", False, None),
    ]
