"""A user in chromium: a rename across files in a project with its own tests, a follow-up, Undo;
then Settings -> another workspace (the sidebar must clear, its own chat shows), a request there,
and back. Run make_projects.sh first. MODEL=qwen2.5-coder-1.5b-q4_k_m ONLY_A=1: the 1.5B run, the
catalogue only (its own port and settings)."""
import os, re, subprocess as sp, time
from pathlib import Path
from playwright.sync_api import sync_playwright

MODEL = os.environ.get("MODEL", "qwen2.5-coder-0.5b-q4_k_m")
ONLY_A = os.environ.get("ONLY_A") == "1"
A, B = Path("/tmp/ulib"), Path("/tmp/ustats")
PORT, CFG = (7883, "/tmp/ulibcfg15") if ONLY_A else (7881, "/tmp/ulibcfg")
REQS_A = [
    "Rename the function by_author in catalog.py to books_by and update every use.",
    "Also make summary say 'no books' instead of '0 book(s)' when the author has none.",
]
REQ_B = "Add a function median(xs) to stats.py that returns the median of a list of numbers."
PY = "/work/main/.venv/bin/python"


def sh(ws, *cmd):
    return sp.run(list(cmd), cwd=ws, capture_output=True, text=True).stdout.strip()


def tests(ws):
    r = sp.run([PY, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=ws, capture_output=True, text=True, timeout=120)
    return r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-200:]


def imports(ws):
    r = sp.run([PY, "report.py"], cwd=ws, capture_output=True, text=True, timeout=60)
    return (r.stdout or r.stderr).strip()[-200:]


def send(page, req, n):
    t0 = time.time()
    page.fill("#request textarea", req)
    page.click("#send")
    page.wait_for_function(f"(document.querySelector('#chat').innerText.match(/Done in/g)||[]).length >= {n}", timeout=1_500_000)
    time.sleep(3)
    chat = page.locator("#chat").inner_text()
    print(f"=== ({time.time()-t0:.0f} s) {req}\n--- chat end:\n{chat[chat.rfind('Done in') - 10:][:900]}", flush=True)


def sidebar(page):
    return page.locator("#timeline .lc-call").count(), page.locator("#context").inner_text()[:160].replace("\n", " | ")


def switch(page, ws):
    page.get_by_role("tab", name="Settings").click(); time.sleep(2)
    page.locator("#workspace textarea, #workspace input").first.fill(str(ws))
    page.click("#save-settings")
    page.wait_for_function("document.querySelector('#settings-message').innerText.includes('Saved')", timeout=120_000)
    print("settings:", page.locator("#settings-message").inner_text(), flush=True)
    time.sleep(4)
    page.get_by_role("tab", name="Code").click(); time.sleep(2)


log = open("/tmp/use_ide_rename_app.log", "w")
app = sp.Popen([PY, "app.py", "--no-browser", "--port", str(PORT), "--workspace", str(A), "--model", MODEL],
               cwd="/work/main", stdout=sp.PIPE, stderr=log, text=True, env=dict(os.environ, LOCALCREW_CONFIG_DIR=CFG))
url = None
for line in app.stdout:
    m = re.search(rf"(http://127\.0\.0\.1:{PORT}/\?token=\S+)", line)
    if m:
        url = m.group(1); break
print("A before: tests", tests(A), "| report.py:", imports(A), flush=True)
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
    page = b.new_page(viewport={"width": 1366, "height": 768})
    page.goto(url); page.wait_for_selector("#request textarea", timeout=300_000)
    for i, req in enumerate(REQS_A, start=1):
        send(page, req, i)
        print("--- git status:", sh(A, "git", "status", "--short"), "| tests:", tests(A), "| report.py:", imports(A), flush=True)
        print("--- sidebar (calls, context):", sidebar(page), flush=True)
        page.screenshot(path=f"/tmp/ulib_{i}.png")
    print("--- diff after both:\n" + sh(A, "git", "diff"), flush=True)
    page.get_by_role("tab", name="Last run").click(); time.sleep(3)
    page.click("#undo")
    page.wait_for_function("/Undid|deletes|confirm/i.test(document.querySelector('#undo-message').innerText)", timeout=120_000)
    msg = page.locator("#undo-message").inner_text(); print("undo:", msg, flush=True)
    if "Undid" not in msg:
        page.click("#undo-confirm"); time.sleep(5); print("undo:", page.locator("#undo-message").inner_text(), flush=True)
    time.sleep(3)
    print("--- after undo, diff:\n" + sh(A, "git", "diff"), "\n| tests:", tests(A), flush=True)
    page.get_by_role("tab", name="Code").click(); time.sleep(1)
    if ONLY_A:
        b.close(); app.terminate(); raise SystemExit(0)
    switch(page, B)
    print("--- B: sidebar", sidebar(page), "| chat:", page.locator("#chat").inner_text()[:200].replace("\n", " "), flush=True)
    send(page, REQ_B, 1)
    print("--- B git status:", sh(B, "git", "status", "--short"), flush=True)
    print("--- B diff:\n" + sh(B, "git", "diff"), flush=True)
    switch(page, A)
    chat = page.locator("#chat").inner_text()
    print("--- back in A: requests in chat:", [r[:30] for r in REQS_A if r[:30] in chat], "| sidebar", sidebar(page), flush=True)
    page.screenshot(path="/tmp/ulib_back.png")
    b.close()
app.terminate()
