"""Settings -> Crew profile used as a user would: choose it, save, reload, run a request and a
follow-up with it (the sidebar should name it), Undo, then back to the default."""
import os, re, subprocess as sp, time
from pathlib import Path
from playwright.sync_api import sync_playwright

ws = Path("/tmp/uproj9")
REQS = [
    "Add a function describe(cart) to report.py that returns one line per item, like 'apple x3'.",
    "Also make describe end with a line 'total: ' followed by the cart's total.",
]
def sh(*cmd):
    return sp.run(list(cmd), cwd=ws, capture_output=True, text=True).stdout
def tests():
    r = sp.run(["/work/main/.venv/bin/python", "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=ws, capture_output=True, text=True, timeout=120)
    return r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-200:]
log = open("/tmp/use_ide9_app.log", "w")
app = sp.Popen(["/work/main/.venv/bin/python", "app.py", "--no-browser", "--port", "7879", "--workspace", str(ws),
                "--model", "qwen2.5-coder-0.5b-q4_k_m"], cwd="/work/main", stdout=sp.PIPE, stderr=log, text=True,
               env=dict(os.environ, LOCALCREW_CONFIG_DIR="/tmp/use9cfg"))
url = None
for line in app.stdout:
    m = re.search(r"(http://127\.0\.0\.1:7879/\?token=\S+)", line)
    if m:
        url = m.group(1); break
print("tests before:", tests(), flush=True)
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
    page = b.new_page(viewport={"width": 1366, "height": 768})
    page.goto(url)
    page.wait_for_selector("#request textarea", timeout=300_000)
    page.get_by_role("tab", name="Settings").click(); time.sleep(2)
    page.click("#crew-profile input"); time.sleep(1)
    options = page.locator("ul[role=listbox] li").all_inner_texts()
    print("profile choices:", options, flush=True)
    page.locator("ul[role=listbox] li", has_text="evolved").first.click(); time.sleep(1)
    page.click("#save-settings")
    page.wait_for_function("document.querySelector('#settings-message').innerText.length > 0", timeout=60_000)
    print("save:", page.locator("#settings-message").inner_text(), flush=True)
    page.screenshot(path="/tmp/use9_settings.png")
    page.reload(); page.wait_for_selector("#request textarea", timeout=300_000)
    page.get_by_role("tab", name="Settings").click(); time.sleep(2)
    print("after reload:", page.locator("#crew-profile input").input_value(), flush=True)
    page.get_by_role("tab", name="Code").click(); time.sleep(1)
    for i, req in enumerate(REQS, start=1):
        t0 = time.time()
        page.fill("#request textarea", req)
        page.click("#send")
        page.wait_for_function(f"(document.querySelector('#chat').innerText.match(/Done in/g)||[]).length >= {i}", timeout=1_500_000)
        time.sleep(3)
        chat = page.locator("#chat").inner_text()
        print(f"=== request {i} ({time.time()-t0:.0f} s): {req}\n--- chat end:\n{chat[chat.rfind('Done in') - 10:][:700]}", flush=True)
        timeline = page.locator("#timeline").inner_text()
        print("--- sidebar names the profile:", "evolved" in timeline, [l for l in timeline.splitlines() if "profile" in l.lower()][:2], flush=True)
        print("--- git status:", sh("git", "status", "--short"), "| tests:", tests(), flush=True)
        page.screenshot(path=f"/tmp/use9_{i}.png")
    print("--- diff after both:\n" + sh("git", "diff"), flush=True)
    page.get_by_role("tab", name="Last run").click(); time.sleep(3)
    page.click("#undo")
    page.wait_for_function("/Undid|deletes|confirm/i.test(document.querySelector('#undo-message').innerText)", timeout=120_000)
    msg = page.locator("#undo-message").inner_text(); print("undo:", msg, flush=True)
    if "Undid" not in msg:
        page.click("#undo-confirm"); time.sleep(5); print("undo:", page.locator("#undo-message").inner_text(), flush=True)
    time.sleep(3)
    print("--- after one undo, diff --stat:", sh("git", "diff", "--stat"), "| tests:", tests(), flush=True)
    page.get_by_role("tab", name="Settings").click(); time.sleep(2)
    page.click("#crew-profile input"); time.sleep(1)
    page.locator("ul[role=listbox] li", has_text="Hand-tuned").first.click(); time.sleep(1)
    page.click("#save-settings"); time.sleep(3)
    print("back to default:", page.locator("#settings-message").inner_text(), open("/tmp/use9cfg/settings.json").read().count('"profile": ""'), flush=True)
    b.close()
app.terminate()
