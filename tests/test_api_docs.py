"""tools.api_docs: errors parsed into lookups, and lookups run for real in the sandbox."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tools.api_docs import Query, library_names, lookup_error, lookup_names, queries_from_error
from tools.sandbox import RunLimits

KEYWORD_TRACEBACK = """Traceback (most recent call last):
  File "report.py", line 4, in <module>
    writer = csv.DictWriter(handle, fieldname=["name", "age"])
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
TypeError: DictWriter.__init__() got an unexpected keyword argument 'fieldname'
"""


# ---------- the errors read ----------
@pytest.mark.parametrize(
    ("error", "expected"),
    [
        ("AttributeError: module 'csv' has no attribute 'DictWriterr'", Query("csv", missing="DictWriterr")),
        (
            "AttributeError: type object 'datetime.datetime' has no attribute 'fromisoformatt'",
            Query("datetime.datetime", missing="fromisoformatt"),
        ),
        ("AttributeError: 'str' object has no attribute 'startwith'", Query("str", missing="startwith")),
        (
            "ImportError: cannot import name 'DictWritter' from 'csv' (/usr/lib/python3.11/csv.py)",
            Query("csv", missing="DictWritter"),
        ),
        ("ModuleNotFoundError: No module named 'datetimes'", Query("datetimes", module_missing=True)),
        (
            "TypeError: 'reversed' is an invalid keyword argument for sort()",
            Query("sort", keyword="reversed"),
        ),
        ("TypeError: dumps() missing 1 required positional argument: 'obj'", Query("dumps")),
        ("TypeError: dumps() takes 1 positional argument but 3 were given", Query("dumps")),
    ],
)
def test_each_kind_of_api_error_becomes_one_lookup(error: str, expected: Query) -> None:
    assert queries_from_error(f"Traceback (most recent call last):\n  ...\n{error}\n") == [expected]


def test_the_traceback_names_the_module_of_an_unqualified_class() -> None:
    (query,) = queries_from_error(KEYWORD_TRACEBACK)
    assert query.name == "DictWriter.__init__" and query.keyword == "fieldname"
    assert query.also == ("csv.DictWriter.__init__",)  # from the code line `csv.DictWriter(`


def test_errors_about_values_not_apis_are_not_looked_up() -> None:
    text = (
        "AttributeError: 'NoneType' object has no attribute 'group'\n"
        "ZeroDivisionError: division by zero\nAssertionError: 3 != 4\n"
    )
    assert queries_from_error(text) == []
    started = time.perf_counter()
    lookup = lookup_error(text, Path("/nonexistent"))  # no sandbox run: not even the folder is read
    assert not lookup.found and lookup.text() == "" and time.perf_counter() - started < 0.5


def test_hints_and_imports_in_the_text_become_hints_and_repeats_are_one_lookup() -> None:
    text = "import json\nfrom collections import Counter\n" + (
        "AttributeError: 'Counter' object has no attribute 'most_commonn'\n" * 2
    )
    (query,) = queries_from_error(text, hints=["csv"])
    assert query.hints == ("csv", "json", "collections")


def test_at_most_three_lookups_first_errors_first() -> None:
    text = "\n".join(f"AttributeError: module 'm{i}' has no attribute 'x'" for i in range(6))
    assert [q.name for q in queries_from_error(text)] == ["m0", "m1", "m2"]


@pytest.mark.parametrize(
    ("request_text", "names"),
    [
        (
            "Write report.py that uses csv.DictWriter, and the json module for the config.",
            ["csv.DictWriter", "json"],
        ),
        ("Use argparse to read --name; with pathlib, write out.txt.", ["argparse", "pathlib"]),
        ("Parse the date with datetime.strptime.", ["datetime.strptime"]),  # not datetime again
        ("Write a script that prints the time in a random string.", []),  # words, not libraries
        ("Save it to config.json and read data.csv.", []),  # file names
        # With one module named, its classes' methods count; file names never do.
        ("In files.py use pathlib's Path.rglob.", ["pathlib.Path.rglob", "pathlib"]),
        (
            "In log.py parse with datetime.strptime and call timedelta.total_seconds().",
            ["datetime.strptime", "datetime.timedelta.total_seconds"],
        ),
    ],
)
def test_the_libraries_a_request_names(request_text: str, names: list[str]) -> None:
    assert library_names(request_text) == names


# ---------- looked up in the sandbox ----------
def test_an_unexpected_keyword_gets_the_signature_and_the_close_parameter(tmp_path: Path) -> None:
    lookup = lookup_error(KEYWORD_TRACEBACK, tmp_path)
    assert not lookup.error, lookup.error
    (result,) = lookup.results
    assert result.found and result.close_names == ("fieldnames",)
    assert result.docs[0].name == "csv.DictWriter"
    assert result.docs[0].signature.startswith("(f, fieldnames, restval=")
    text = lookup.text()
    assert "`csv.DictWriter` takes no keyword argument `fieldname`; close names: fieldnames." in text
    assert text.startswith("Documentation read from the Python the checks run with:")


def test_a_missing_attribute_lists_close_names_and_documents_the_closest(tmp_path: Path) -> None:
    lookup = lookup_error(
        "AttributeError: 'Counter' object has no attribute 'most_commonn'", tmp_path, hints=["collections"]
    )
    (result,) = lookup.results
    assert result.owner == "collections.Counter" and result.close_names[0] == "most_common"
    (doc,) = result.docs
    assert doc.name == "collections.Counter.most_common" and doc.signature == "(self, n=None)"
    assert doc.summary.startswith("List the n most common elements")


def test_a_c_function_reads_its_signature_from_its_docstring(tmp_path: Path) -> None:
    (result,) = lookup_names(["str.startswith"], tmp_path).results
    (doc,) = result.docs
    assert doc.signature == "(prefix[, start[, end]]) -> bool"
    assert doc.summary.startswith("Return True if S starts with the specified prefix")


def test_a_method_named_through_its_module_is_found_on_the_modules_class(tmp_path: Path) -> None:
    lookup = lookup_names(["datetime.strptime", "json.split"], tmp_path)
    strptime, split = lookup.results
    assert strptime.docs[0].name == "datetime.datetime.strptime" and "format" in strptime.docs[0].summary
    assert not split.docs  # never str.split: json was named
    assert "`json` has no attribute `split`." in lookup.text()


def test_a_misspelt_module_and_name_get_close_names(tmp_path: Path) -> None:
    lookup = lookup_error(
        "ModuleNotFoundError: No module named 'datetimes'\n"
        "ImportError: cannot import name 'DictWritter' from 'csv' (/usr/lib/python3.11/csv.py)",
        tmp_path,
    )
    modules, names = lookup.results
    assert "datetime" in modules.close_names and not modules.found
    assert names.close_names == ("DictWriter",) and names.docs[0].name == "csv.DictWriter"
    wrong = lookup_names(["csv.DictWriterr", "nosuch_module_xyz.thing"], tmp_path)
    assert wrong.results[0].query.missing == "DictWriterr" and wrong.results[0].close_names == ("DictWriter",)
    assert not wrong.results[1].found and "`nosuch_module_xyz.thing` was not found" in wrong.text()


def test_the_workspaces_own_modules_are_read_as_the_checks_see_them(tmp_path: Path) -> None:
    (tmp_path / "stats.py").write_text(
        'def mean(values, *, skip_none=False):\n    """Average of the values.\n\n    More."""\n'
    )
    (tmp_path / "inspect.py").write_text("raise SystemExit('the project shadows inspect')\n")
    lookup = lookup_error("AttributeError: module 'stats' has no attribute 'meann'", tmp_path)
    assert not lookup.error, lookup.error
    (doc,) = lookup.results[0].docs
    assert (doc.name, doc.signature, doc.summary) == (
        "stats.mean",
        "(values, *, skip_none=False)",
        "Average of the values.",
    )


def test_an_import_runs_in_the_sandbox_and_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "noisy.py").write_text(
        "import pathlib\npathlib.Path('written.txt').write_text('x')\npathlib.Path('stats.py').unlink()\n"
        "def run(n):\n    '''Run it.'''\n"
    )
    (tmp_path / "stats.py").write_text("X = 1\n")
    lookup = lookup_names(["noisy.run"], tmp_path)
    assert lookup.results[0].docs[0].signature == "(n)"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["noisy.py", "stats.py"]


def test_an_import_that_hangs_ends_at_the_time_limit(tmp_path: Path) -> None:
    (tmp_path / "slow.py").write_text("while True:\n    pass\n")
    started = time.perf_counter()
    lookup = lookup_names(["slow.thing"], tmp_path, limits=RunLimits(wall_s=2.0))
    assert time.perf_counter() - started < 10
    assert lookup.error.startswith("the lookup failed") and not lookup.found and lookup.text() == ""


def test_the_text_is_capped(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text(f'"""{"word " * 2000}"""\ndef f():\n    """{"long " * 2000}"""\n')
    lookup = lookup_names(["big.f"], tmp_path)
    (doc,) = lookup.results[0].docs
    assert len(doc.summary) == 400 and doc.summary.endswith("…")
    capped = lookup.text(max_chars=150)
    assert len(capped) == 150 and capped.endswith("…")
