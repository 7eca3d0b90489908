"""A message ending in a colon keeps only a next line that goes on with it.

Review of dee065c: "ValueError: Unsupported model type:" followed by the server's next log line
("INFO 05-01 ... shutting down"), a shell prompt, a progress bar or the next traceback's header
reported that line as the fault's detail. Torch's tab-indented detail, a chained exception's head
and a printed value still follow the colon.
"""

import pytest

from spec_debug.session.failures import extract_errors

HEAD = 'Traceback (most recent call last):\n  File "/x/run.py", line 3, in <module>\n    main()\n'


@pytest.mark.parametrize("after", [
    "INFO 05-01 12:00:00 [engine.py:12] shutting down\n",
    "$ ls /models\n",
    "Loading safetensors checkpoint shards:  50% 1/2 [00:01<00:01]\n",
    "Traceback (most recent call last):\n",
    "[2026-11-30 12:00:01 TP0] Decode batch. #running-req: 1\n",
])
def test_an_unrelated_next_line_is_not_the_message(after):
    errors = extract_errors(HEAD + "ValueError: Unsupported model type:\n" + after, exit_code=1)
    assert errors[0].message == "Unsupported model type:"


@pytest.mark.parametrize("after, said", [
    ("\tMissing key(s) in state_dict: \"d2t\".\n", 'Missing key(s) in state_dict: "d2t".'),
    ("RuntimeError: shape mismatch\n", "RuntimeError: shape mismatch"),
    ("['awq', 'fp8']\n", "['awq', 'fp8']"),
    ("[128, 256]\n", "[128, 256]"),
])
def test_a_continuation_is_kept(after, said):
    errors = extract_errors(HEAD + "ValueError: supported are:\n" + after, exit_code=1)
    assert errors[0].message == f"supported are: {said}"
