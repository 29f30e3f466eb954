"""Rule project_calls on recorded data, no model: (1) every reference solution of the sealed dev
half and the acceptance set must raise nothing (a correct change never told off); (2) the answer
the 0.5B wrote for sealed dev 11, approved though its hidden test failed, must be caught.

    PYTHONPATH=. python bench/results/2026-11-27-project-calls-static/check.py   (from the repository root)
"""

import json
from pathlib import Path

from agents.project_calls import broken_calls, new_call_breaks


def sources(folder: Path) -> dict[str, str]:
    files = folder.rglob("*.py") if folder.exists() else []
    return {str(p.relative_to(folder)): p.read_text() for p in files}


references = flagged = 0
for root in (Path("bench/sealed_requests/dev"), Path("bench/crew_requests")):
    for request in sorted(p for p in root.iterdir() if p.is_dir()):
        before, reference = sources(request / "files"), sources(request / "reference")
        if not reference:
            continue
        references += 1
        problems = new_call_breaks(before, before | reference) + sorted(map(str, broken_calls(before)))
        if problems:
            flagged += 1
            print(request.name, problems)

dev11 = Path("bench/sealed_requests/dev/11_rename_reminder_signature/files")
baseline = Path("bench/results/2026-11-27-sealed-dev-0.5b/baseline")
transcript = (baseline / "11_rename_reminder_signature.md").read_text()
start = transcript.index("`billing.py`\n\n````python\n") + len("`billing.py`\n\n````python\n")
written = {"billing.py": transcript[start : transcript.index("````", start)]}
caught = new_call_breaks(sources(dev11), sources(dev11) | written)
print("\n".join(caught))
print(json.dumps({"references": references, "references_flagged": flagged, "dev11_caught": bool(caught)}))
