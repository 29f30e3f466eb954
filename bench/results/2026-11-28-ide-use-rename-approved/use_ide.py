"""A user in chromium, the 1.5B: the cross-file rename in the catalogue project (its own tests,
under git; ../2026-11-28-ide-use-rename/make_projects.sh), accept each staged file in the Review
tab, a follow-up, then Undo of the follow-up. Prints what the user sees and what is on disk."""
import os, re, subprocess as sp, time
from pathlib import Path
from playwright.sync_api import sync_playwright

MODEL = os.environ.get("MODEL", "qwen2.5-coder-1.5b-q4_k_m")
A, PORT, CFG = Path("/tmp/ulib"), 7885, "/tmp/ulibcfg-approved"
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


def accept_all(page):
    page.get_by_role("tab", name="Review").click(); time.sleep(2)
    for _ in range(5):
        if "No staged change" in page.locator("#review-diff").inner_text():
            break
        page.click("#review-file input"); time.sleep(1)
        option = page.get_by_role("option").first
        name = option.inner_text(); option.click(); time.sleep(2)
        page.click("#review-accept")
        page.wait_for_function("/Accepted|not written/.test(document.querySelector('#review-message').innerText)", timeout=120_000)
        print("review:", name, "->", page.locator("#review-message").inner_text()[:200], flush=True)
        time.sleep(2)
    page.get_by_role("tab", name="Code").click(); time.sleep(1)


log = open("/tmp/use_ide_approved_app.log", "w")
app = sp.Popen([PY, "app.py", "--no-browser", "--port", str(PORT), "--workspace", str(A), "--model", MODEL],
               cwd="/work/main", stdout=sp.PIPE, stderr=log, text=True, env=dict(os.environ, LOCALCREW_CONFIG_DIR=CFG))
url = None
for line in app.stdout:
    if m := re.search(rf"(http://127\.0\.0\.1:{PORT}/\?token=\S+)", line):
        url = m.group(1); break
print("before:", state(), flush=True)
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
    page = b.new_page(viewport={"width": 1366, "height": 768})
    page.goto(url); page.wait_for_selector("#request textarea", timeout=300_000)
    for i, req in enumerate(REQS, start=1):
        chat = send(page, req, i)
        print("--- after the run:", state(), flush=True)
        if "Held for review" in chat[chat.rfind("Done in"):]:
            accept_all(page)
            print("--- after accepting:", state(), flush=True)
        page.screenshot(path=f"/tmp/approved_{i}.png")
    print("--- diff after both:\n" + sh("git", "diff"), flush=True)
    page.get_by_role("tab", name="Last run").click(); time.sleep(3)
    page.click("#undo")
    page.wait_for_function("/Undid|deletes|confirm/i.test(document.querySelector('#undo-message').innerText)", timeout=120_000)
    msg = page.locator("#undo-message").inner_text(); print("undo:", msg, flush=True)
    if "Undid" not in msg:
        page.click("#undo-confirm"); time.sleep(5); print("undo:", page.locator("#undo-message").inner_text(), flush=True)
    time.sleep(3)
    print("--- after undo:", state(), "\n" + sh("git", "diff"), flush=True)
    b.close()
app.terminate()
