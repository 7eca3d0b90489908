"""The words of a traceback's header inside a line of code or prose head no traceback.

A `cat` of a test file (or an agent's note) with 'raise ValueError("Traceback (most recent call
last) in a string")' in it was an error, "traceback without an exception line (truncated
output)", though the command ran clean: CPython prints the header alone on its line
(Lib/traceback.py), and only such a line (or one ending in a JSON string's "\\n") starts one.
"""

from spec_debug.session.failures import extract_errors

SOURCE = '''\
def test_reports_the_exception():
    out = run('raise ValueError("Traceback (most recent call last) in a string")')
    assert "Traceback (most recent call last):" in out
'''


def test_the_header_inside_code_is_no_traceback():
    assert extract_errors(SOURCE, 0, False) == []
    assert extract_errors("The Traceback (most recent call last) shows a KeyError.", 0, False) == []


def test_real_headers_still_start_tracebacks():
    plain = 'Traceback (most recent call last):\n  File "a.py", line 3, in f\nKeyError: 1\n'
    assert [(e.exception, e.line) for e in extract_errors(plain, 1, True)] == [("KeyError", 3)]
    crlf = plain.replace("\n", "\r\n")
    assert [(e.exception, e.line) for e in extract_errors(crlf, 1, True)] == [("KeyError", 3)]
    escaped = '{"message": "Traceback (most recent call last):\\n  File \\"a.py\\", line 3, in f\\nKeyError: 1"}'
    assert [(e.exception, e.line) for e in extract_errors(escaped, 1, True)] == [("KeyError", 3)]
    prefixed = "ERROR 05-02 10:11:12 [core.py:586] " + plain.replace("\n", "\nERROR 05-02 10:11:12 [core.py:586] ")
    assert [e.exception for e in extract_errors(prefixed, 1, True)] == ["KeyError"]
