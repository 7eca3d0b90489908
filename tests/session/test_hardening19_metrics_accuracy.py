"""A draft's accuracy at a later position of its test-time unroll is no claim and no standalone
reading: only position 0 (the next token's top-1) is what a card claims and what SD401 compares.
Training consoles print every position on its own line; the format is that of SpecForge
scripts/train_eagle3.py ("Train Epoch [e/n], position i, Acc: a", record_metrics' "Eval - Step s,
position i, Acc: a") and SafeAILab/EAGLE eagle/traineagle3/main.py."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.metrics import extract_metrics
from tests.session.incident_story import _Writer

START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
SESSION = "7e1a0000-0000-4000-8000-00000000bb1d"
TRAIN_LOG = ("Train Epoch [3/10], position 0, Acc: 0.7412\n"
             "Train Epoch [3/10], position 1, Acc: 0.4518\n"
             "Train Epoch [3/10], position 2, Acc: 0.2833\n"
             "Train Epoch [3/10], position 3, Acc: 0.1791\n")


def _sd401(tmp_path: Path, writer: _Writer) -> list[str]:
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(writer.lines) + "\n", encoding="utf-8")
    return [line for f in analyze_path(path).findings if f.code == "SD401" for line in f.evidence]


def test_only_position_zero_of_a_training_console_is_the_claimed_accuracy():
    # before: four validation accuracies, the last (17.91, position 3) the claim
    assert [(m.name, m.value) for m in extract_metrics(TRAIN_LOG, prose=False)] == [("validation_accuracy", 74.12)]
    assert [(m.name, m.value) for m in extract_metrics("Eval - Step 12000, position 2, Acc: 0.27\n"
                                                       "Eval - Step 12000, position 0, Acc: 0.73\n", prose=False)] \
        == [("validation_accuracy", 73.0)]


def test_a_standalone_eval_far_under_the_trained_position_zero_is_sd401(tmp_path):
    w = _Writer(SESSION, None, START)
    w.bash("tail -n 4 outputs/qwen3-8b-eagle3/train.log", TRAIN_LOG)
    w.bash("python eval_standalone.py --draft outputs/qwen3-8b-eagle3/epoch_3 --position 0",
           "standalone top-1 acc: 31.2%")
    # before: no SD401 (31.2 against position 3's 17.91)
    assert [line for line in _sd401(tmp_path, w) if "standalone accuracy 31.2%" in line and "claimed 74.12%" in line]


def test_a_healthy_standalone_run_printing_every_position_is_no_sd401(tmp_path):
    w = _Writer(SESSION, None, START)
    w.prompt("The draft's card claims 74.7% validation accuracy.")
    w.bash("python eval_standalone.py --draft outputs/qwen3-8b-eagle3/epoch_3",
           "Eval - Step 0, position 0, Acc: 0.72\nEval - Step 0, position 1, Acc: 0.44\n"
           "Eval - Step 0, position 2, Acc: 0.27\n")
    # before: SD401 "standalone accuracy 27% ... vs claimed 74.7%" (position 2 is no top-1 accuracy)
    assert _sd401(tmp_path, w) == []
