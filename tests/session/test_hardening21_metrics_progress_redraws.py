"""A training progress bar redrawn with "\\r" is one reading, the last, and reading it is linear.

A training loop's tqdm bar ("Training:  59%|... [00:15<00:08, 3.07step/s, acc=0.0107, loss=8.28,
tau=1.03]", NVIDIA-NeMo/Automodel#2959's EAGLE-3 training) is redrawn after a "\\r" at every step,
so a captured output holds hundreds of redraws on one line: each was an accuracy reading of its
own (30 accuracies for one bar of 30 steps). And the context of each reading looked for the
line's ends over the whole line, so 60,000 redraws (13 MB, one line) took 9 s; now under 1 s.
"""

import time

from spec_debug.session.metrics import extract_metrics


def _bar(steps, word="acc"):
    return "".join(f"Training:  59%|#####9    | {i}/64 [00:15<00:08,  3.07step/s, {word}=0.{i:04d}, loss=8.2841, "
                   f"lr=4.47e-05, tau=1.03]\r" for i in range(steps))


def test_a_redrawn_bar_is_its_last_reading():
    assert [(m.name, m.value) for m in extract_metrics(_bar(30), "", False)] == [("validation_accuracy", 0.29)]


def test_each_line_keeps_its_own_last_reading():
    text = _bar(30) + "\n" + _bar(12).replace("Training", "Eval")
    assert [m.value for m in extract_metrics(text, "", False)] == [0.29, 0.11]


def test_readings_on_lines_of_their_own_all_stay():
    text = "".join(f"epoch=0 step={i} train_loss=6.39 train_acc=0.0{i} lr=4.5e-05\n" for i in range(1, 6))
    assert [m.value for m in extract_metrics(text, "", False)] == [1.0, 2.0, 3.0, 4.0, 5.0]


def test_a_megabyte_line_of_redraws_is_read_in_linear_time():
    text = _bar(30) * 2000  # 60,000 redraws, 13 MB, no newline
    t = time.thread_time()
    found = extract_metrics(text, "", False)
    assert len(found) == 1 and time.thread_time() - t < 4.0
