"""rich's traceback panel is read to its exception and innermost frame.

rich (Textualize/rich rich/traceback.py; typer's CLIs, RichHandler logs, Streamlit) draws the
stack inside a panel under "╭── Traceback (most recent call last) ──╮", each frame a line
"│ /path/x.py:88 in main" (a long path wraps onto the next line), the exception flush left after
the panel's "╰──╯". Every panel line ended the traceback: "traceback without an exception line
(truncated output)" and the exception lost. The shapes below are as posted publicly (an mcp CLI's
test notes, a RichHandler log in a chat, a Streamlit Cloud log).
"""

from spec_debug.session.failures import extract_errors


def _read(output):
    return [(e.kind, e.exception, e.file, e.line) for e in extract_errors(output, 1, True)]


SIMPLE = """╭──────────────────── Traceback (most recent call last) ────────────────────╮
│ /tmp/mcpo/bin/mcpo:5 in <module>                                         │
│                                                                          │
│   from mcpo.main import app                                              │
╰──────────────────────────────────────────────────────────────────────────╯
ImportError: cannot import name streamablehttp_client
"""

WRAPPED = """╭───────────────────── Traceback (most recent call last) ──────────────────────╮
│ /Users/masa/.local/pipx/venvs/mcp-ticketer/lib/python3.13/site-packages/mcp_ │
│ ticketer/cli/main.py:1935 in mcp_callback                                    │
│                                                                              │
│ ❱ 1935 │   │   │   os.chdir(project_path)                                    │
│                                                                              │
╰──────────────────────────────────────────────────────────────────────────────╯
FileNotFoundError: [Errno 2] No such file or directory: 
'/nonexistent/path/that/does/not/exist'
"""

RICH_HANDLER = """[07/21/26 21:25:24] Error calling tool 'read'                                
                    ╭────────── Traceback (most recent call last) ──────────╮
                    │ /home/labile/everlingo/.venv/lib/python3.12/site-pack │
                    │ ages/fastmcp/server/server.py:1312 in call_tool       │
                    │                                                       │
                    │                ... 4 frames hidden ...                │
                    │                                                       │
                    │ /home/labile/everlingo/src/everlingo/mem/vault.py:41  │
                    │ in read                                               │
                    ╰───────────────────────────────────────────────────────╯
                    IsADirectoryError: [Errno 21] Is a directory: 'items/grammar'
"""

STREAMLIT = """────────────────────── Traceback (most recent call last) ───────────────────────
  /home/adminuser/venv/lib/python3.13/site-packages/streamlit/runtime/scriptru  
  nner/exec_code.py:129 in exec_func_with_error_handling                        
                                                                                
  /mount/src/credit-risk-ml-app/streamlit_app.py:71 in <module>                 
                                                                                
    70 import joblib                                                           
  ❱ 71 model = joblib.load("model.pkl")                                         
────────────────────────────────────────────────────────────────────────────────
FileNotFoundError: [Errno 2] No such file or directory: 'model.pkl'
"""


def test_the_panels_exception_and_innermost_frame():
    assert _read(SIMPLE) == [("traceback", "ImportError", "/tmp/mcpo/bin/mcpo", 5)]


def test_a_wrapped_path_is_joined():
    assert _read(WRAPPED) == [("traceback", "FileNotFoundError",
                               "/Users/masa/.local/pipx/venvs/mcp-ticketer/lib/python3.13/site-packages/"
                               "mcp_ticketer/cli/main.py", 1935)]


def test_a_panel_indented_under_richhandlers_time_column():
    assert _read(RICH_HANDLER) == [("traceback", "IsADirectoryError", "/home/labile/everlingo/src/everlingo/mem/vault.py", 41)]


def test_streamlits_panel_without_sides():
    assert _read(STREAMLIT) == [("traceback", "FileNotFoundError", "/mount/src/credit-risk-ml-app/streamlit_app.py", 71)]


def test_a_locals_box_and_source_lines_are_no_frames():
    panel = ("╭──────── Traceback (most recent call last) ────────╮\n"
             "│ /root/specforge/train.py:88 in main               │\n"
             "│ ❱ 88 │   head = sd[\"lm_head.weight\"]              │\n"
             "│ ╭───────────── locals ─────────────╮              │\n"
             "│ │ url = 'http://host:8000'          │              │\n"
             "│ ╰──────────────────────────────────╯              │\n"
             "╰───────────────────────────────────────────────────╯\n"
             "KeyError: 'lm_head.weight'\n")
    assert _read(panel) == [("traceback", "KeyError", "/root/specforge/train.py", 88)]
