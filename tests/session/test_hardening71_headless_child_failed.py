"""torchrun's ChildFailedError whose traceback header a tail cut (``tail -22`` of its output,
recorded: torch 2.13.0): read as a headless traceback, its message was empty, "" the error the
analysis showed, where the whole traceback's was read from the report under it ("rank 0 exitcode
1": failures._child_failed, torch's ChildFailedError.format_msg). The headless one reads it too."""

from __future__ import annotations

from spec_debug.session.failures import extract_errors
from tests.session.test_hardening71_torchrun_report_through_tail import FULL, TAIL_22


def test_a_headless_child_failed_error_is_named_by_its_report() -> None:
    (whole,) = [e for e in extract_errors(FULL, 1) if e.exception and e.exception.endswith("ChildFailedError")]
    (cut,) = extract_errors(TAIL_22, 1)
    assert (cut.exception, cut.message) == ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError",
                                            "rank 0 exitcode 1")
    assert cut.message == whole.message
    (read_back,) = extract_errors(TAIL_22, None, status_known=False)  # a terminal log's `tail -22 train.log`
    assert read_back.message == "rank 0 exitcode 1"
