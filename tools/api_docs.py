"""Offline documentation lookup: the signature and first docstring paragraph of the API a failed
check tripped over (or a name the caller gives), read from the Python the checks run with.

Small coders misremember library APIs (`csv.DictWriter(f, fieldname=...)`, `str.startwith`). The
lookup reads the truth from the interpreter that runs the checks, inside the sandbox (importing a
module runs its code; the workspace's own modules may be among them), with a time limit and a cap
on the text given back:

    lookup = lookup_error(stderr_of_the_failed_check, workspace, hints=["csv"])
    lookup.text()   # for the coder's prompt; "" when nothing was found
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from tools.api_docs_probe import MARKER
from tools.sandbox import RunLimits, run_command

PROBE = Path(__file__).with_name("api_docs_probe.py")
MAX_QUERIES = 3  # lookups per failed check: the first errors say what went wrong
DEFAULT_MAX_CHARS = 1200  # ~300 tokens of the coder's prompt
# Importing a library may take seconds (numpy, pandas); nothing the probe writes is kept.
DEFAULT_LIMITS = RunLimits(wall_s=15.0, apply_back=False, output_bytes=32_000)
HEADER = "Documentation read from the Python the checks run with:"

_NAME = r"[A-Za-z_][\w.]*"
# (pattern, what its groups mean): every error a wrong use of an API gives in Python 3.11.
_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"AttributeError: module '({_NAME})' has no attribute '(\w+)'"), "missing"),
    (re.compile(rf"AttributeError: type object '({_NAME})' has no attribute '(\w+)'"), "missing"),
    (re.compile(rf"AttributeError: '({_NAME})' object has no attribute '(\w+)'"), "missing"),
    (re.compile(rf"ImportError: cannot import name '(\w+)' from '({_NAME})'"), "import"),
    (re.compile(rf"ModuleNotFoundError: No module named '({_NAME})'"), "module"),
    (re.compile(rf"TypeError: ({_NAME})\(\) got an unexpected keyword argument '(\w+)'"), "keyword"),
    (re.compile(rf"TypeError: '(\w+)' is an invalid keyword argument for ({_NAME})\(\)"), "keyword-c"),
    (re.compile(rf"TypeError: ({_NAME})\(\) (?:takes|missing|got multiple|got some)"), "call"),
)
# Types whose missing attribute says the value is wrong, not the API: nothing to look up.
_NOT_AN_API = {"NoneType", "function", "builtin_function_or_method", "method", "module"}
_CALL = re.compile(r"\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\s*\(")
_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.MULTILINE)


@dataclass(frozen=True)
class Query:
    """One thing to look up: `name` (a module, class or function, as the error names it) and what
    went wrong with it."""

    name: str
    missing: str = ""  # an attribute `name` does not have
    keyword: str = ""  # a keyword argument its call was given
    module_missing: bool = False  # `name` is a module that cannot be imported
    also: tuple[str, ...] = ()  # fuller names for it, from the traceback's code lines
    hints: tuple[str, ...] = ()  # modules to look in for an unqualified name

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "missing": self.missing,
            "keyword": self.keyword,
            "module_missing": self.module_missing,
            "also": list(self.also),
            "hints": list(self.hints),
        }

    def problem(self, owner: str) -> str:
        """What went wrong, in words ('' for a plain lookup)."""
        if self.module_missing:
            return f"No module named `{self.name}` in the Python the checks run with"
        if self.missing:
            return f"`{owner or self.name}` has no attribute `{self.missing}`"
        if self.keyword:
            return f"`{owner or self.name}` takes no keyword argument `{self.keyword}`"
        return ""


@dataclass(frozen=True)
class ApiDoc:
    """One API as the interpreter describes it."""

    name: str  # as found: "csv.DictWriter", "str.startswith"
    kind: str  # "module", "class", "function" or "value"
    signature: str  # "(f, fieldnames, restval='', ...)"; "" where none can be read
    summary: str  # the docstring's first paragraph, capped; "" where there is none

    def text(self) -> str:
        head = f"{self.name}{self.signature}" if self.signature else f"{self.name} ({self.kind})"
        return f"{head}\n  {self.summary}" if self.summary else head


@dataclass(frozen=True)
class LookupResult:
    query: Query
    found: bool  # the named object (or the owner of the missing attribute) was found
    owner: str = ""  # the object lacking `query.missing`, as found: "collections.Counter"
    docs: tuple[ApiDoc, ...] = ()  # the API itself, or the closest name's where it was missing
    close_names: tuple[str, ...] = ()  # names like the missing one (attributes, keywords, modules)
    error: str = ""  # the probe failed on this lookup (an import raised)

    def text(self) -> str:
        lines = []
        problem = self.query.problem(self.owner)
        if problem:
            close = f"; close names: {', '.join(self.close_names)}" if self.close_names else ""
            lines.append(f"- {problem}{close}.")
        elif not self.found:
            lines.append(f"- `{self.query.name}` was not found in the Python the checks run with.")
        lines += [f"- {doc.text()}" for doc in self.docs]
        return "\n".join(lines)


@dataclass(frozen=True)
class DocLookup:
    """The lookups of one call: what was found, and how the sandbox run went."""

    results: tuple[LookupResult, ...] = ()
    error: str = ""  # the run itself failed (time limit, no output): nothing was read
    duration_s: float = 0.0
    queries: tuple[Query, ...] = field(default=())

    @property
    def found(self) -> bool:
        return any(result.docs or result.close_names for result in self.results)

    def text(self, max_chars: int = DEFAULT_MAX_CHARS) -> str:
        """For the coder's prompt: the header and each result, cut at `max_chars`; '' if nothing."""
        if not self.found:
            return ""
        text = "\n".join([HEADER, *(r.text() for r in self.results if r.text())])
        return text if len(text) <= max_chars else text[: max_chars - 1].rstrip() + "…"


def queries_from_error(error_text: str, hints: Iterable[str] = ()) -> list[Query]:
    """The APIs an error (a traceback, a check's stderr) says were used wrongly, first seen first."""
    hints = tuple(dict.fromkeys([*hints, *imported_modules(error_text)]))
    calls = _CALL.findall(error_text)
    found: list[Query] = []
    for match, kind in _matches(error_text):
        query = _query(match, kind, hints, calls)
        if query is not None and query not in found:
            found.append(query)
    return found[:MAX_QUERIES]


def _matches(text: str) -> list[tuple[re.Match[str], str]]:
    hits = [(m, kind) for pattern, kind in _ERRORS for m in pattern.finditer(text)]
    return sorted(hits, key=lambda hit: hit[0].start())


def _query(match: re.Match[str], kind: str, hints: tuple[str, ...], calls: list[str]) -> Query | None:
    first, second = match.group(1), match.group(2) if match.lastindex and match.lastindex > 1 else ""
    if kind == "missing":
        return None if first in _NOT_AN_API else Query(first, missing=second, hints=hints)
    if kind == "import":
        return Query(second, missing=first, hints=hints)
    if kind == "module":
        return Query(first, module_missing=True, hints=hints)
    name, keyword = (second, first) if kind == "keyword-c" else (first, second)
    return Query(name, keyword=keyword, also=_fuller_names(name, calls), hints=hints)


def _fuller_names(name: str, calls: list[str]) -> tuple[str, ...]:
    """`csv.DictWriter.__init__` for `DictWriter.__init__` where the code called `csv.DictWriter(`."""
    head, _, rest = name.partition(".")
    fuller = [call + (f".{rest}" if rest else "") for call in calls if call.rsplit(".", 1)[-1] == head]
    return tuple(dict.fromkeys(fuller))


def imported_modules(text: str) -> list[str]:
    """The modules `import x` / `from x import y` lines of `text` name (code, or a traceback's)."""
    names = [a or b for a, b in _IMPORT.findall(text)]
    return [name for name in dict.fromkeys(names) if not name.startswith(".")]


# A library named in words: "use argparse", "with pathlib", "import re", "the csv module".
_VERB_NAMED = re.compile(r"\b(?:use|uses|using|with|import|from|via)\s+`?(\w+)`?", re.IGNORECASE)
_MODULE_NAMED = re.compile(r"\bthe\s+`?(\w+)`?\s+(?:module|library|package)\b", re.IGNORECASE)
_DOTTED = re.compile(r"\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\b(?!\.\w)")


def library_names(request: str) -> list[str]:
    """The standard-library APIs a request names, most specific first: `csv.DictWriter`, then
    "the csv module", "using argparse". Plain words that are also module names (time, string,
    random) count only in those phrasings; a module named with one of its APIs is left out. Where
    the request names one module, its classes' methods count too: `Path.rglob` with pathlib."""
    stdlib = sys.stdlib_module_names
    found = _DOTTED.findall(request)
    dotted = [name for name in found if name.split(".")[0] in stdlib]
    named = _VERB_NAMED.findall(request) + _MODULE_NAMED.findall(request)
    covered = {name.split(".")[0] for name in dotted}
    modules = [name for name in named if name in stdlib and name not in covered]
    one = covered | set(modules)
    if len(one) == 1:  # `Counter.most_common` is `collections.Counter.most_common`
        (module,) = one
        # A class's method (`Path.rglob`), or one called (`timedelta.total_seconds()`), not a file name.
        methods = [
            n for n in found if n.split(".")[0] not in stdlib and (n[0].isupper() or f"{n}(" in request)
        ]
        dotted += [f"{module}.{name}" for name in methods]
    return list(dict.fromkeys([*dotted, *modules]))


def lookup_error(
    error_text: str,
    workspace: Path,
    *,
    hints: Sequence[str] = (),
    limits: RunLimits | None = None,
) -> DocLookup:
    """Look up what `error_text` (a failed check's output) says was misused. `hints`: modules the
    failing code imports, where an unqualified name (`loads()`, `'Counter' object`) is looked for.
    No lookup (an empty DocLookup) when the error is not about an API."""
    return run_lookups(queries_from_error(error_text, hints), workspace, limits=limits)


def lookup_names(
    names: Sequence[str], workspace: Path, *, hints: Sequence[str] = (), limits: RunLimits | None = None
) -> DocLookup:
    """Look up named APIs: "csv", "csv.DictWriter", "datetime.datetime.strptime". A missing last
    part comes back as a missing attribute of the rest, with close names."""
    queries = [Query(name, hints=tuple(hints)) for name in dict.fromkeys(names) if name.strip()]
    return run_lookups(queries[:MAX_QUERIES], workspace, limits=limits)


def run_lookups(queries: Sequence[Query], workspace: Path, *, limits: RunLimits | None = None) -> DocLookup:
    """Run the probe in the sandbox, in `workspace` (so its modules import as the checks' do)."""
    if not queries:
        return DocLookup()
    started = time.perf_counter()
    payload = json.dumps([query.to_json() for query in queries])
    argv = [sys.executable, "-c", PROBE.read_text(encoding="utf-8"), payload]
    # Never applied back, whatever the caller's limits say: a lookup does not change the project.
    result = run_command(workspace, argv, replace(limits or DEFAULT_LIMITS, apply_back=False))
    took = time.perf_counter() - started
    line = next((ln for ln in reversed(result.stdout_tail.splitlines()) if ln.startswith(MARKER)), "")
    if not line:
        why = result.stderr_tail.strip().splitlines()[-1:] or [result.summary()]
        return DocLookup(error=f"the lookup failed: {why[0][:200]}", duration_s=took, queries=tuple(queries))
    raw = json.loads(line[len(MARKER) :])
    results = tuple(_result(query, data) for query, data in zip(queries, raw, strict=False))
    return DocLookup(results=results, duration_s=took, queries=tuple(queries))


def _result(query: Query, data: dict) -> LookupResult:
    docs = tuple(
        ApiDoc(str(d["name"]), str(d["kind"]), str(d["signature"]), str(d["summary"])) for d in data["docs"]
    )
    missing = data.get("missing")
    found, owner = bool(data.get("found")), str(data.get("owner", ""))
    if missing and found and not query.missing:  # "csv.DictWriterr" by name: the owner lacks it
        query = replace(query, name=owner, missing=missing)
    if query.keyword and docs:  # the callable as found: "csv.DictWriter", not "DictWriter.__init__"
        owner = docs[0].name
    return LookupResult(
        query=query,
        found=found,
        owner=owner,
        docs=docs,
        close_names=tuple(data.get("close_names", ())),
        error=str(data.get("error", "")),
    )
