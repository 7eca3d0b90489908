"""A failed ``mix test`` whose tests raised is named by the exception ExUnit printed, not by its
first line ("Compiling 41 files (.ex)").

Shaped as the output of a real Claude Code 2.1.39 session committed by marot/spotter
(``test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl`` at commit 8cc42b0,
``mix test test/spotter_web/live/project_review_live_test.exs 2>&1``, ``Exit code 2``); shortened.
The banner is Elixir's own (elixir-lang/elixir ``lib/elixir/lib/exception.ex`` ``format_banner``).
"""

from __future__ import annotations

from spec_debug.session.failures import extract_errors

MIX_TEST = """\
Exit code 2
Compiling 41 files (.ex)
Generated spotter app
Getting extensions in current project...
Running setup for AshSqlite.DataLayer...
Running ExUnit with seed: 374312, max_cases: 32



  1) test mount handles invalid project id gracefully (SpotterWeb.ProjectReviewLiveTest)
     test/spotter_web/live/project_review_live_test.exs:102
     ** (RuntimeError) Phoenix LiveView requires lazy_html as a test dependency.
     Please add to your mix.exs:

     {:lazy_html, ">= 0.1.0", only: :test}

     code: {:ok, _view, html} = live(conn, "/projects/#{Ash.UUID.generate()}/review")
     stacktrace:
       (phoenix_live_view 1.1.22) lib/phoenix_live_view/test/dom.ex:13: Phoenix.LiveViewTest.DOM.ensure_loaded!/0
       test/spotter_web/live/project_review_live_test.exs:104: (test)


Finished in 0.3 seconds (0.00s async, 0.3s sync)
5 tests, 5 failures
"""


def test_the_exception_a_test_raised_names_the_failed_run():
    # before: ("exit_code", None, "Compiling 41 files (.ex)")
    assert [(e.kind, e.exception, e.message) for e in extract_errors(MIX_TEST, 2, True)] == [
        ("exception", "RuntimeError", "Phoenix LiveView requires lazy_html as a test dependency.")]


def test_an_exit_banner_is_read_too():
    out = "Exit code 1\nCompiling 2 files (.ex)\n** (exit) exited in: GenServer.call(Spotter.Repo, :ping, 5000)\n"
    assert [(e.kind, e.exception, e.message) for e in extract_errors(out, 1, True)] == [
        ("exception", "exit", "exited in: GenServer.call(Spotter.Repo, :ping, 5000)")]


def test_an_error_line_still_comes_first():
    # a compile diagnostic says more than the CompileError banner Mix prints after it
    out = ("Exit code 1\nCompiling 4 files (.ex)\n    error: undefined function get/2\n\n"
           "== Compilation error in file test/x_test.exs ==\n"
           "** (CompileError) test/x_test.exs: cannot compile module XTest (errors have been logged)\n")
    assert [(e.kind, e.message) for e in extract_errors(out, 1, True)] == [
        ("exit_code", "error: undefined function get/2")]


def test_the_banner_in_a_run_that_succeeded_is_no_error():
    out = "Running ExUnit\n  ** (RuntimeError) expected in this test\n1 test, 0 failures\n"
    assert extract_errors(out, 0, False) == []
