"""A user in chromium: the catalogue project (its own tests, under git;
../2026-11-28-ide-use-rename/make_projects.sh). The cross-file rename, held for review, accepted
with one "Accept the run"; then Last run → Undo, which must take back that accepted run; Redo; a
follow-up, accepted or written; Undo again. Prints what the user sees and what is on disk."""
import os, re, subprocess as sp, time
from pathlib import Path
from playwright.sync_api import sync_playwright

MODEL = os.environ.get("MODEL", "qwen2.5-coder-1.5b-q4_k_m")
A, PORT, CFG = Path("/tmp/ulib"), 7887, "/tmp/ulibcfg-accept-undo"
REQS = [
    "Rename the function by_author in catalog.py to books_by and update every use.",
    "Also make summary say 'no books' instead of '0 book(s)' when the author has none.",
]
PY = "/work/main/.venv/bin/python"


def sh(*cmd):
    return sp.run(list(cmd), cwd=A, capture_output=True, text=True).stdout.strip()


def state():
    t = sp.run([PY, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=A, capture_output=True, text=True, timeout=120)
    r = sp.run([PY, "report.py"], cwd=A, capture_output=True, text=True, timeout=60)
    return f"git: [{sh('git', 'status', '--short')}] tests: {t.stdout.strip().splitlines()[-1]} | report.py: {(r.stdout or r.stderr).strip()[-120:]}"


def send(page, req, n):
    t0 = time.time()
    page.fill("#request textarea", req)
    page.click("#send")
    page.wait_for_function(f"(document.querySelector('#chat').innerText.match(/Done in/g)||[]).length >= {n}", timeout=1_500_000)
    time.sleep(3)
    chat = page.locator("#chat").inner_text()
    print(f"=== ({time.time()-t0:.0f} s) {req}\n--- chat end:\n{chat[chat.rfind('Done in') - 300:][:1200]}", flush=True)
    return chat


def accept_run(page):
    page.get_by_role("tab", name="Review").click(); time.sleep(2)
    print("review diff:\n" + page.locator("#review-diff").inner_text()[:1500], flush=True)
    page.click("#review-accept-all")
    page.wait_for_function("/Accepted|Not accepted/.test(document.querySelector('#review-message').innerText)", timeout=120_000)
    print("review:", page.locator("#review-message").inner_text()[:300], flush=True)
    time.sleep(3)


def last_run(page, button):
    page.get_by_role("tab", name="Last run").click(); time.sleep(3)
    chosen = page.locator("#run-choice input").input_value() if page.locator("#run-choice input").count() else "?"
    print(f"Last run chooser before {button}: {chosen}", flush=True)
    before = page.locator("#undo-message").inner_text()
    page.click(f"#{button}")
    page.wait_for_function(  # a new message, not the last one nor Gradio's progress text
        "old => { const t = document.querySelector('#undo-message').innerText;"
        " return t !== old && /Undid|Redid|deletes|Nothing|failed/i.test(t) && !/queue:|processing/i.test(t); }",
        arg=before, timeout=120_000)
    msg = page.locator("#undo-message").inner_text(); print(f"{button}:", msg, flush=True)
    if "deletes" in msg.lower() and page.locator("#undo-confirm").is_visible():
        page.click("#undo-confirm"); time.sleep(5); print(f"{button}:", page.locator("#undo-message").inner_text(), flush=True)
    time.sleep(3)
    print(f"--- after {button}:", state(), "\n" + sh("git", "diff", "--stat"), flush=True)


log = open("/tmp/use_ide_accept_undo_app.log", "w")
app = sp.Popen([PY, "app.py", "--no-browser", "--port", str(PORT), "--workspace", str(A), "--model", MODEL],
               cwd=os.environ.get("APP_DIR", "/work/main"), stdout=sp.PIPE, stderr=log, text=True,
               env=dict(os.environ, LOCALCREW_CONFIG_DIR=CFG))
url = None
for line in app.stdout:
    if m := re.search(rf"(http://127\.0\.0\.1:{PORT}/\?token=\S+)", line):
        url = m.group(1); break
print("model:", MODEL, "before:", state(), flush=True)
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
    page = b.new_page(viewport={"width": 1366, "height": 768})
    page.goto(url); page.wait_for_selector("#request textarea", timeout=300_000)
    for i, req in enumerate(REQS, start=1):
        chat = send(page, req, i)
        print("--- after the run:", state(), flush=True)
        if "Held for review" in chat[chat.rfind("Done in"):]:
            accept_run(page)
            print("--- after accepting:", state(), "\n" + sh("git", "diff"), flush=True)
        page.get_by_role("tab", name="Code").click(); time.sleep(1)
        if i == 1:
            last_run(page, "undo")
            last_run(page, "redo")
    page.screenshot(path="/tmp/accept_undo.png")
    print("--- diff after both:\n" + sh("git", "diff"), flush=True)
    last_run(page, "undo")
    b.close()
app.terminate()
