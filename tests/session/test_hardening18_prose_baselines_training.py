"""What a draft's training logs and its trainers say about it: the accuracy at the first drafted
position (the one a draft card claims) and the accepted length. Each text is copied from the
thread or source named above it."""

from __future__ import annotations

from spec_debug.session.metrics import extract_metrics


def _readings(text: str) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in extract_metrics(text)]


def test_eagles_per_position_test_accuracies_give_position_0_as_the_validation_accuracy():
    # https://github.com/SafeAILab/EAGLE/issues/191: EAGLE's wandb keys, one dict a line
    text = ("The model I trained myself shows the following accuracies: \n"
            "{'test/0_acc': 0.7011205932523408} \n"
            "{'test/1_acc': 0.3695069132237691} \n"
            "{'test/2_acc': 0.20591324651566492} \n"
            "{'test/3_acc': 0.12545586495531533} \n"
            "{'test/4_acc': 0.08118215044928648}\n")
    # before: none read; the later positions predict from the draft's own guesses and are no claim
    assert _readings(text) == [("validation_accuracy", 70.112)]


def test_specforges_tracker_keys_give_position_0_as_the_validation_accuracy():
    # sgl-project/SpecForge scripts/train_eagle3.py, record_metrcs: logdict[f"{mode}/acc_{i}"]
    # for each of the --ttt-length (default 7) positions
    assert _readings("eval/acc_0: 0.7412, eval/acc_1: 0.5503, eval/acc_2: 0.4391") == \
        [("validation_accuracy", 74.12)]
    assert _readings("acc_0: 0.74 acc_1: 0.55") == [("validation_accuracy", 74.0)]
    # a key that names no position is read as before
    assert _readings("top1_acc: 0.5") == [("accuracy", 50.0)]


def test_the_accepted_length_a_run_has_reached_is_an_accept_length():
    # https://github.com/deepseek-ai/DeepSpec/issues/84 reports Eagle3's accept_len peaking at 3.34;
    # people write it in words
    assert _readings("After 4.6 epochs the accepted length has reached 3.34 on the held-out prompts.") == \
        [("accept_length", 3.34)]


def test_an_accepted_length_ratio_or_a_field_limit_is_no_accept_length():
    # a trainer's README comparing its drafter with MTP: "accepted length reached 1.39x ~ 2.19x"
    assert _readings("accepted length reached 1.39x ~ 2.19x, with the bench at 2.05x ~ 2.09x") == []
    # API docs pasted into a session: "Maximum accepted length is 20 chars"
    assert _readings("Maximum accepted length is 20 chars, and values should only be alphanumeric") == []
