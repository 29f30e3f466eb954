#!/usr/bin/env bash
# For each rule: the in-process crew tests (scripted engine), the rule's own test file left out,
# with the rule off by default. Which tests fail = which user scenarios need it.
cd /work/main
FILES=$(grep -l "crew_script\|ScriptedEngine\|scripted_engine" tests/test_*.py | grep -v "test_mcp_server\|test_gui_\|test_openai_backend\|test_sealed_set\|test_crew_bench\|test_local_llm\|test_batch_decode\|test_reviewer_engine\|test_reviewer_model")
for rule in "$@"; do
  own=$(.venv/bin/python -c "from agents.rule_registry import rule; print(rule('$rule').test)")
  sel=$(echo "$FILES" | grep -v "^$own$" | tr '\n' ' ')
  RULE_OFF=$rule PYTHONPATH=/tmp/mut timeout 1200 .venv/bin/python -m pytest -q -p no:cacheprovider -p rule_off -n 2 $sel 2>&1 | grep -E "^FAILED|passed|failed" | sed "s/^/$rule: /" >> /tmp/mut/results.txt
done
echo done >> /tmp/mut/results.txt
