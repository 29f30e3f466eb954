"""The request, read once: one value every rule of a run receives instead of the raw words.

Every reading of the request's words lives here, so what a request "names", "asks for" or "lets
go" is decided once per run, in one file; a rule that wants a new fact adds a field here. Outside
this module only the prompt builders use the words themselves (tests/test_house_rules.py holds that).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

# ---------- file names ----------
FILE_NAME = re.compile(
    r"(?<![\w/.-])([A-Za-z0-9_][A-Za-z0-9_.-]{0,40}(?:/[A-Za-z0-9_][A-Za-z0-9_.-]{0,40}){0,2}\.(?:py|txt|md|json|toml|cfg|ini|csv|html|js|css))\b"
)


def files_named_in(text: str) -> list[str]:
    """File names the user wrote in the request, in order (e.g. 'add.py', 'tests/test_add.py')."""
    return list(dict.fromkeys(FILE_NAME.findall(text)))


# `python cli.py low`, python3 tools/run.py --dry: a command line the request names (a crash it
# reports, a run it asks for). Its words end at the first that is prose ("crashes", "now").
_COMMAND = re.compile(r"\bpython3?\s+((?:-m\s+)?[\w./-]+(?:\.py)?)((?:[ \t]+(?!python)[\w.=/:,+-]+)*)")
_MEMBER = re.compile(r"\b([A-Z]\w*)\.([A-Za-z_]\w*)\b")  # Store.remove
_TEST_RUNNER = re.compile(r"-m\s+(?:pytest|unittest)\b")
_COMMAND_QUOTED = re.compile(r"`(python3?\s+[^`\n]+)`")
_PROSE = re.compile(
    r"^(?:crash\w*|fails?|failed|failing|raises?|raised|gives?|prints?|errors?|throws?|does\w*|now|"
    r"and|with|is|should|still|too|also|again|when|but|so|to|the|same|way|works?|returns?)$",
    re.I,
)


def commands_named(text: str) -> list[str]:
    """The Python command lines the request names, in order: in backticks as written; bare, up to
    the first word of prose after them."""
    quoted = [m.group(1).strip() for m in _COMMAND_QUOTED.finditer(text)]
    found = [c for c in quoted if not _TEST_RUNNER.search(c)]
    bare = _COMMAND_QUOTED.sub(" ", text)
    for match in _COMMAND.finditer(bare):
        target = match.group(1)
        if not (target.endswith(".py") or target.startswith("-m")) or _TEST_RUNNER.match(target):
            continue  # the project's tests run anyway
        words = []
        for word in match.group(2).split():
            bare = word.rstrip(".:,;")
            if _PROSE.match(bare):
                break
            words += [bare] if bare else []
            if bare != word:  # the end of a sentence or a clause
                break
        found.append(" ".join(["python", target, *words]))
    return list(dict.fromkeys(found))


def is_test_file(rel: str) -> bool:
    """A file pytest collects by its name."""
    name = Path(rel).name
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def is_user_test(rel: str) -> bool:
    """A test file or any Python file under a tests/ folder: the user's ground truth."""
    parts = Path(rel).parts
    return is_test_file(rel) or (rel.endswith(".py") and any(p in ("tests", "test") for p in parts[:-1]))


# ---------- what it asks for ----------
_ASKS_TO_PRINT = re.compile(r"\b(print|prints|printed|printing|display|displays)\b", re.I)
_ASKS_FOR_TESTS = re.compile(
    r"\b(write|writes|add|create|generate)\b(?:\s+[\w.-]+){0,3}?\s+(?:unit\s+|pytest\s+)?tests?\b", re.I
)
# Words that ask for a test itself to change ("update test_x.py", "rewrite the test for parse"), as
# against "the tests fail: fix the code so they pass", which asks for the code to change.
_TEST_NOUN = (
    r"(?:the\s+|a\s+|this\s+|that\s+)?(?:failing\s+|broken\s+|wrong\s+)?"
    r"(?:test\b|tests\b|test_\w+(?:\.py)?|\w+_test\.py|assert)"
)
_CHANGES_TESTS = re.compile(
    rf"\b(?:change|update|edit|rewrite|modify|adjust|replace|remove|delete|rename)\s+{_TEST_NOUN}", re.I
)
# "Fix the failing test" is the first thing a user asks, and it means the code: fixing a test
# itself needs the request to say the test is what is wrong.
_FIXES_TEST = re.compile(rf"\b(?:fix|fixes|correct)\s+{_TEST_NOUN}", re.I)
_TEST_IS_WRONG = re.compile(
    r"\b(?:tests?|test_\w+|asserts?|assertions?|expects?|expected|expectations?)\b[^.;:\n]{0,40}?"
    r"\b(?:wrong|incorrect|outdated|out\s+of\s+date|typo|mistaken|a\s+mistake)\b"
    r"|\b(?:wrong|incorrect|outdated)\s+(?:expected|expectation|value|assert)",
    re.I,
)
_ABOUT_TESTS = re.compile(r"\btests?\b|\btest_\w+|\w+_test\.py\b|\bpytest\b", re.I)
_NAMED_TEST = re.compile(r"\btest_\w+\b(?![.\w])")
_ASKS_FOR_SCRIPT = re.compile(r"\b(output|script|examples?|usage|demo|main|run it|when run)\b", re.I)
_ABOUT_LAYOUT = re.compile(
    r"\b(blank|empty)\s+lines?\b|\breformat|\bpep\s?8\b|\bblack\b|\bwhitespace\b|\bspacing\b", re.I
)
_ABOUT_DOCSTRINGS = re.compile(r"\bdoc\s?strings?\b", re.I)
_ABOUT_COMMENTS = re.compile(r"\bcomments?\b|\bcommented\b", re.I)
# Words that ask for a file to be made: such a file is not expected to be there yet.
_MAKES = re.compile(
    r"\b(?:create|creates|new|write|make|add|generate|build|implement|start|save|put|scaffold)\b", re.I
)
# Words that ask for something already there to change.
_CHANGES_CODE = re.compile(
    r"\b(?:fix|fixes|change|update|edit|correct|modify|refactor|rename|debug|optimi[sz]e|speed\s+up|"
    r"faster|clean\s+up|improve|crash\w*|bug\w*|error|broken|fails?|failing)\b",
    re.I,
)
# The whole request is a wish about the code at large: nothing names what to change or how to
# tell it worked. Kept narrow on purpose: a request with any more to it goes ahead.
_VAGUE = re.compile(
    r"(?:please\s+)?(?:(?:make|get)\s+(?:it|this|that|the\s+code|the\s+project|everything|the\s+app)\s+"
    r"(?:faster|quicker|better|cleaner|nicer|more\s+efficient)|(?:optimi[sz]e|improve|speed\s+up|clean\s+up|"
    r"refactor)\s+(?:it|this|that|the\s+code|the\s+project|everything|the\s+app))(?:\s+please)?[.!]*",
    re.I,
)

# A question about the code, as against a request to change it: each sentence asks (a question
# word first and a question mark last) or asks for an explanation ("Explain cli.py"). "Can you add
# ...?" and "Why does test_x fail? Fix it." ask for a change.
_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_ASKS = re.compile(
    r"^(?:what|what's|whats|why|where|which|who|when|how|does|do|is|are|was|were|should|did)\b[^?]*\?$",
    re.I,
)
_EXPLAIN = re.compile(
    r"^(?:please\s+)?(?:explain|describe|summari[sz]e|walk\s+me\s+through|tell\s+me)\b", re.I
)


def asks_a_question(text: str) -> bool:
    """Whether the request only asks about the code: every sentence a question or a request to
    explain, none asking for a change."""
    sentences = [s.strip() for s in _SENTENCES.split(text.strip()) if s.strip()]
    if not sentences or _CHANGES_CODE.search(" ".join(s for s in sentences if _EXPLAIN.match(s))):
        return False
    return all(_ASKS.match(s) or _EXPLAIN.match(s) for s in sentences)


# How a reply to the crew's question starts ("Yes, update the tests too", "create it", "I meant
# store.py"), as against a new request typed instead of an answer.
_ANSWER_START = re.compile(
    r"^\W*(?:yes|yeah|yep|no|nope|ok|okay|sure|please|go\s+ahead|proceed|do\s+it|both|neither|either|"
    r"the\s+(?:first|second|former|latter|one)|option|alias|keep|update\s+the\s+tests|create\s+(?:it|them)|"
    r"i\s+mean|i\s+meant|it'?s|it\s+is|that'?s|use)\b",
    re.I,
)


def reads_as_answer(text: str) -> bool:
    """Whether words typed after the crew asked a question answer it: they start as an answer does,
    or ask for nothing on their own ("the render one"). "Add mean() to stats.py" is a new request."""
    if _ANSWER_START.match(text):
        return True
    return not (_MAKES.search(text) or _CHANGES_CODE.search(text))


def asks_for_output(request: str) -> bool:
    """The request wants the program to print something, so a silent run has not done it."""
    return bool(_ASKS_TO_PRINT.search(request))


# A test asked for beside the code: "Add median(marks) to grades.py, and a test for it in
# tests/test_grades.py" (in the IDE the test's write was refused as an unasked change to the tests).
_TESTS_TOO = re.compile(
    r"\b(?:add|write|create|make|implement|build)\b(?:[^.;]|\.(?=\w))*?\b(?:and|with|plus|also)\s+"
    r"(?:(?:a|an|some|its|one|unit|pytest)\s+)*tests?\b(?!\s+(?:pass|fail))",
    re.I,
)


def asks_for_tests(request: str) -> bool:
    """The request asks for tests to be written ("Write pytest tests for stats.py in test_stats.py",
    "Add median() ... and a test for it"), not for code to pass them ("Fix clamp() so that the tests
    in test_clamp.py pass")."""
    return bool(_ASKS_FOR_TESTS.search(request) or _TESTS_TOO.search(request))


# "Rename letter to letter_grade everywhere, the tests included": a change across the project that
# says the tests go with it (in the IDE the crew asked whether it might change them all the same).
_TESTS_INCLUDED = re.compile(
    r"\b(?:the\s+)?tests?\s+(?:included|too|as\s+well|also)\b|\bincluding\s+(?:in\s+)?(?:the\s+)?tests?\b",
    re.I,
)
_EVERYWHERE = re.compile(r"\beverywhere\b|\bacross\s+the\s+(?:project|code)\b|\ball\s+(?:files|uses)\b", re.I)


def asks_to_change_tests(text: str) -> bool:
    """Words that ask for an existing test to change, not for the code under it."""
    if _CHANGES_TESTS.search(text):
        return True
    if _TESTS_INCLUDED.search(text) and (_RENAME.search(text) or _EVERYWHERE.search(text)):
        return True
    return bool(_FIXES_TEST.search(text) and _TEST_IS_WRONG.search(text))


# ---------- the names it lets go: removals and renames ----------
_WORD = re.compile(r"[A-Za-z_]\w*")
_DROPS = re.compile(
    r"\b(remove|removes|delete|deletes|drop|drops|rename|renames|replace|replaces|merge)\b", re.I
)
_KINDS = r"(?:function|method|class|variable|constant|attribute|field|module)"
# "rename conv to convert", "Rename the function by_author in catalog.py to books_by"; not "Rename
# the method to total()", which names no old name.
_RENAME = re.compile(
    rf"\brenam\w*\s+(?:the\s+)?(?:{_KINDS}\s+)?(?!(?:{_KINDS}|it|this|that|them)\b)`?([A-Za-z_][\w.]*)`?(?:\(\))?`?"
    r"(?:\s+(?:in|from|of)\s+`?[\w./]+`?)?\s+(?:to|into|as)\s+`?([A-Za-z_]\w*)",
    re.I,
)
# "Order.calc_total is a clumsy name. Rename the method to total()": the old name is said before.
_RENAME_KIND = re.compile(
    rf"\brenam\w*\s+(?:the|this|that|it)\s+(?:{_KINDS}\s+)?(?:to|into|as)\s+`?([A-Za-z_]\w*)", re.I
)
_NAMED_BEFORE = re.compile(
    r"`([A-Za-z_][\w.]*)`|\b[A-Za-z_]\w*\.(?!(?:py|json|csv|txt|md|toml|ya?ml|cfg|ini)\b)([A-Za-z_]\w*)\b"
    r"|\b([A-Za-z_]\w*)\(\)"
)
# "... and keep calc as an alias": the old name is to stay beside the new one.
_KEEPS_OLD_NAME = re.compile(r"\balias\w*\b|\bkeep\w*\s+(?:the\s+)?old\b|\bbackwards?[\s-]compat", re.I)
_MAIN_DROPPED = re.compile(
    r"\b(?:remove|delete|drop)\w*\b[^.;]*(?:__main__|__name__|\bmain\s+(?:block|guard|section)|\bentry\s+point)",
    re.I,
)


def renames(request: str) -> dict[str, str]:
    """{old: new} for each "rename old to new" in the request, and for "rename the method to new"
    the code name said last before it (`name`, Class.name or name())."""
    found = {old.split(".")[-1]: new for old, new in _RENAME.findall(request)}
    for match in _RENAME_KIND.finditer(request):
        new = match.group(1)
        said = [next(g for g in m.groups() if g) for m in _NAMED_BEFORE.finditer(request[: match.start()])]
        olds = [name.split(".")[-1] for name in said if name.split(".")[-1] != new]
        if olds and new not in found.values():
            found[olds[-1]] = new
    return found


def removable_names(request: str) -> set[str]:
    if not _DROPS.search(request):
        return set()
    return set(_WORD.findall(request))


# ---------- which files it asks to change ----------
# Words that ask for a file's content to change, in the clause naming it ("Add a 'timeout' key to
# config.json"); "The settings are in config.json" and "a function that reads scores.csv" only say
# what to read.
_CHANGES = re.compile(
    r"\b(add|adds|append|appends|change|changes|update|updates|edit|edits|set|sets|remove|removes|"
    r"delete|deletes|drop|drops|rename|renames|fix|fixes|replace|replaces|modify|modifies|write|"
    r"writes|put|insert|inserts|save|saves|sort|correct|extend|fill|clean|reformat|format)\b",
    re.I,
)
_CLAUSES = re.compile(r"(?<=[.;!?])\s+|\s+(?:that|which|and|then)\s+", re.I)
# "(don't edit config.json, other machines have different ones)" asks to leave it.
_NEGATED = re.compile(
    r"(?:\bdon[’']?t|\bdo\s+not|\bnever|\bnot|\bwithout|\bno\s+need\s+to)\s+(?:\w+\s+)?$", re.I
)


def _asks_a_change(clause: str) -> bool:
    return any(not _NEGATED.search(clause[: m.start()]) for m in _CHANGES.finditer(clause))


def asks_to_change(request: str, path: str) -> bool:
    """Whether a clause of the request that names the file (its path, its name, or its stem as a
    word, not another file's: "the README") also asks for a change."""
    name = path.rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0]
    names = re.compile(rf"{re.escape(path)}|{re.escape(name)}|\b{re.escape(stem)}\b(?!\.\w)", re.I)
    return any(names.search(clause) and _asks_a_change(clause) for clause in _CLAUSES.split(request))


# ---------- the calls it writes ----------
_CALL = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\(")
_ANY_CALL = re.compile(r"\b(\w+)\s*\(")
# A quoted text with a space in it is words to print, not code: "say 'no books' instead of
# '0 book(s)'" asked for no book(). A quote opens after a space or bracket, so "don't" opens none.
_QUOTED_TEXT = re.compile(r"""(?:(?<=^)|(?<=[\s(\[]))(['"])([^'"]*\s[^'"]*)\1(?=$|[\s,.;:!?)\]])""")
_NEXT = re.compile(r"\b\w+\s*\(|[.;](?:\s|$)")  # where a clause about a call ends
_AS_INT = re.compile(r"\bas an? (?:int|integer)\b", re.I)
_GIVES = re.compile(r"\b(return|returns|returning|give|gives|giving|yield|yields)\b", re.I)


def calls_outside_quotes(request: str) -> list[str]:
    """The names the request writes as calls (`done(item)`), in order, leaving out quoted prose."""
    prose = [match.span() for match in _QUOTED_TEXT.finditer(request)]
    calls = [m for m in _CALL.finditer(request) if not any(a <= m.start() < b for a, b in prose)]
    return list(dict.fromkeys(m.group(1) for m in calls))


def clauses_about(request: str, name: str) -> list[str]:
    """The words after each `name(...)` in the request, up to the next call or the sentence's end."""
    found = []
    for match in re.finditer(rf"\b{re.escape(name)}\s*\(", request):
        tail = request[match.end() :]
        close = tail.find(")")
        tail = tail[close + 1 :] if close >= 0 else tail
        stop = _NEXT.search(tail)
        found.append(tail[: stop.start()] if stop else tail)
    return found


@dataclass(frozen=True)
class RequestFacts:
    """What a request says, for the rules: its words stay in `text` for prompts only."""

    text: str
    files: tuple[str, ...] = ()  # file names it writes, in order
    calls: frozenset[str] = frozenset()  # names it writes as calls: `div(a, b)`
    output: bool = False  # it asks for something printed
    tests: bool = False  # it asks for tests to be written
    test_changes: bool = False  # it asks for an existing test to change
    about_tests: bool = False  # it speaks of tests at all ("so the tests pass")
    renamed: dict[str, str] = field(default_factory=dict)  # {old: new}
    keeps_old_name: bool = False  # a rename that keeps the old name as an alias
    removable: frozenset[str] = frozenset()  # names it lets a rewrite drop
    words: frozenset[str] = frozenset()  # every name-like word in it
    asked_calls: tuple[str, ...] = ()  # names written as calls, quoted prose left out, in order
    clauses: dict[str, tuple[str, ...]] = field(
        default_factory=dict
    )  # {name: the words after each name(...)}
    named_tests: tuple[str, ...] = ()  # test functions it names (`test_total`), not test files
    drops_main: bool = False  # it asks for a script's `if __name__ == "__main__":` block to go
    script: bool = False  # it speaks of output, a script, examples or usage
    about_layout: bool = False  # blank lines, reformatting, PEP 8, whitespace
    about_comments: bool = False
    about_docstrings: bool = False
    makes: bool = False  # it asks for something to be made (a file may not be there yet)
    changes: bool = False  # it asks for something already there to change
    vague: bool = False  # the whole request is a wish about the code at large ("make it faster")
    commands: tuple[str, ...] = ()  # Python command lines it names: `python cli.py low`
    members: frozenset[tuple[str, str]] = frozenset()  # the Class.method names it writes
    question: bool = False  # it only asks about the code ("What does report.py do?")

    @classmethod
    def read(cls, text: str) -> RequestFacts:
        text = text.strip()
        return cls(
            text=text,
            files=tuple(files_named_in(text)),
            calls=frozenset(re.findall(r"\b([A-Za-z_]\w*)\(", text)),
            output=asks_for_output(text),
            tests=asks_for_tests(text),
            test_changes=asks_to_change_tests(text),
            about_tests=bool(_ABOUT_TESTS.search(text)),
            renamed=renames(text),
            keeps_old_name=bool(_KEEPS_OLD_NAME.search(text)),
            removable=frozenset(removable_names(text)),
            words=frozenset(_WORD.findall(text)),
            asked_calls=tuple(calls_outside_quotes(text)),
            clauses={n: tuple(clauses_about(text, n)) for n in dict.fromkeys(_ANY_CALL.findall(text))},
            named_tests=tuple(_NAMED_TEST.findall(text)),
            drops_main=bool(_MAIN_DROPPED.search(text)),
            script=bool(_ASKS_FOR_SCRIPT.search(text)),
            about_layout=bool(_ABOUT_LAYOUT.search(text)),
            about_comments=bool(_ABOUT_COMMENTS.search(text)),
            about_docstrings=bool(_ABOUT_DOCSTRINGS.search(text)),
            makes=bool(_MAKES.search(text)),
            changes=bool(_CHANGES_CODE.search(text)),
            vague=_VAGUE.fullmatch(text) is not None,
            commands=tuple(commands_named(text)),
            members=frozenset(_MEMBER.findall(text)),
            question=asks_a_question(text),
        )

    def with_memory(self, memory: str) -> RequestFacts:
        """The request read together with what the conversation asked before (a follow-up's "it")."""
        return RequestFacts.read(f"{self.text}\n{memory}")

    @cached_property
    def may_change_tests(self) -> bool:
        """Whether the user's tests may be edited: asked to write tests, or to change one."""
        return self.tests or self.test_changes

    def asks_to_change(self, path: str) -> bool:
        """Whether a clause naming `path` also asks for a change."""
        return asks_to_change(self.text, path)

    def names_file(self, path: str) -> bool:
        return path in self.files or Path(path).name in {Path(f).name for f in self.files}

    def mentions(self, name: str) -> bool:
        """Whether the request has `name` as a word of its own."""
        return re.search(rf"\b{re.escape(name)}\b", self.text) is not None

    def says_as_int(self, name: str) -> bool:
        """Whether a clause about `name(...)` says it returns a value "as an int"."""
        return any(_AS_INT.search(clause) for clause in self.clauses.get(name, ()))

    def promises_a_value(self, name: str) -> bool | None:
        """Whether a clause about `name(` says it returns something; None when the request never
        writes it as a call."""
        clauses = self.clauses.get(name, ())
        return any(_GIVES.search(clause) for clause in clauses) if clauses else None


NO_REQUEST = RequestFacts.read("")  # for the checks made where no request is known
