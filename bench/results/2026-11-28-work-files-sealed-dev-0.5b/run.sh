#!/usr/bin/env bash
# The two rules against their absence on the sealed dev requests that name files (0.5B), sharing
# the model's replies through bench.replay's cache (each configuration decodes only what differs).
set -u
O=$1; PY=/work/main/.venv/bin/python
ONLY=01,07,08,09,12,16,17,18
for cfg in with without; do
  extra=(); [[ $cfg == without ]] && extra=(--without work_files,broken_files_shown)
  $PY -m bench.replay cache "$O/calls.jsonl" -- -m bench.sealed --set dev --only $ONLY \
    --model qwen2.5-coder-0.5b-q4_k_m --out "$O/$cfg" --json "${extra[@]}" > "$O/$cfg.log" 2>&1
done
date -u +%FT%TZ > "$O/ended.txt"
