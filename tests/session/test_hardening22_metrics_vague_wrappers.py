"""A chained exception that says less than its cause reports the cause.

``raise RuntimeError("Failed to load the drafter") from e`` over "KeyError: 'd2t'" reported
the RuntimeError and its frame in the script: the key the checkpoint lacks, and the frame in
the loader that looked for it, were lost. So were they behind an empty wrapper
(``raise RuntimeError() from e``) and one that points back ("please check the stack trace
above for the root cause", vLLM's multiproc executor's words). A wrapper with a reason of its
own ("You are trying to access a gated repo.") or a handler's own words after "During handling
of the above exception" stay the error, as before.
"""

from spec_debug.session.failures import extract_errors

CAUSE = '''\
Traceback (most recent call last):
  File "/x/speculators/models/eagle3.py", line 88, in from_pretrained
    d2t = state["d2t"]
KeyError: 'd2t'

{link}

Traceback (most recent call last):
  File "/x/run.py", line 9, in <module>
    main()
  File "/x/run.py", line 5, in main
    raise {raised}
{raised_line}
'''
DIRECT = "The above exception was the direct cause of the following exception:"
HANDLING = "During handling of the above exception, another exception occurred:"


def _error(raised_line, link=DIRECT):
    text = CAUSE.format(link=link, raised=raised_line.split(":")[0] + "(...)", raised_line=raised_line)
    [err] = extract_errors(text, exit_code=1)
    return err.exception, err.message, err.file, err.line


KEY_ERROR = ("KeyError", "'d2t'", "/x/speculators/models/eagle3.py", 88)


def test_a_wrapper_that_only_says_it_failed_reports_its_cause():
    assert _error("RuntimeError: Failed to load the drafter") == KEY_ERROR
    assert _error("ValueError: Could not load checkpoint") == KEY_ERROR
    assert _error("RuntimeError: An error occurred while loading the speculator.") == KEY_ERROR


def test_an_empty_wrapper_reports_its_cause():
    assert _error("RuntimeError") == KEY_ERROR
    assert _error("RuntimeError", HANDLING) == KEY_ERROR


def test_a_wrapper_that_points_back_reports_its_cause():
    said = "RuntimeError: Worker failed with error 'd2t', please check the stack trace above for the root cause"
    assert _error(said) == KEY_ERROR
    assert _error(said, HANDLING) == KEY_ERROR


def test_a_wrapper_with_a_reason_of_its_own_stays():
    assert _error("RuntimeError: draft vocab 32000 does not match target vocab 128256")[:2] == \
        ("RuntimeError", "draft vocab 32000 does not match target vocab 128256")
    assert _error("RuntimeError: Failed to load the drafter: KeyError 'd2t'")[:2] == \
        ("RuntimeError", "Failed to load the drafter: KeyError 'd2t'")


def test_a_handlers_own_words_stay_the_error():
    assert _error("RuntimeError: could not load drafter", HANDLING)[:2] == ("RuntimeError", "could not load drafter")
