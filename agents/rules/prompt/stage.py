"""The prompt stage: what the coder is shown.
Its rules, in the order they run (as docs/crew.md lists them); each home asks
`rules.on(<the rule's function>)` where the rule applies."""

from __future__ import annotations

from agents.rules.prompt.answer_questions import answer_question
from agents.rules.prompt.api_lookup import docs_for, docs_named
from agents.rules.prompt.ask_first import ask_missing_file, ask_vague_request
from agents.rules.prompt.ask_rename_in_tests import ask_rename_in_tests
from agents.rules.prompt.broken_files_shown import broken_files_shown
from agents.rules.prompt.code_under_test import suspects
from agents.rules.prompt.failing_trace import failing_trace
from agents.rules.prompt.failure_evidence import evidence
from agents.rules.prompt.focused_retry import focus_on
from agents.rules.prompt.follow_up_memory import follow_up_memory
from agents.rules.prompt.retrieved_context import retrieved_context
from agents.rules.prompt.small_project_files import small_project_files
from agents.rules.prompt.work_files import work_files

ORDER = (
    follow_up_memory,
    work_files,
    small_project_files,
    retrieved_context,
    docs_for,
    docs_named,
    broken_files_shown,
    focus_on,
    evidence,
    failing_trace,
    suspects,
    ask_missing_file,
    ask_vague_request,
    ask_rename_in_tests,
    answer_question,
)
