import re, subprocess as sp, time, json
from pathlib import Path
from playwright.sync_api import sync_playwright
ws = Path("/tmp/uproj8")
REQS = [
    "Add a method count(self) to Cart in cart.py that returns the total number of items (the sum of qty over the lines).",
    "Now add a test of count() to tests/test_cart.py.",
]
def pytest_state():
    r = sp.run(["/work/main/.venv/bin/python", "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=ws, capture_output=True, text=True, timeout=120)
    return r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-200:]
log = open("/tmp/use_ide8_app.log", "w")
app = sp.Popen(["/work/main/.venv/bin/python", "app.py", "--no-browser", "--port", "7878", "--workspace", str(ws),
                "--model", "qwen2.5-coder-0.5b-q4_k_m"], cwd="/work/main", stdout=sp.PIPE, stderr=log, text=True,
               env=dict(__import__("os").environ, LOCALCREW_CONFIG_DIR="/tmp/use8cfg"))
url = None
for line in app.stdout:
    m = re.search(r"(http://127\.0\.0\.1:7878/\?token=\S+)", line)
    if m: url = m.group(1); break
print("url ok", flush=True)
print("before:", pytest_state(), flush=True)
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
    page = b.new_page(viewport={"width": 1366, "height": 768})
    page.goto(url)
    page.wait_for_selector("#request textarea", timeout=300_000)
    for i, req in enumerate(REQS, start=1):
        before = pytest_state()
        t0 = time.time()
        page.fill("#request textarea", req)
        page.click("#send")
        page.wait_for_function(f"(document.querySelector('#chat').innerText.match(/Done in/g)||[]).length >= {i}", timeout=1_500_000)
        time.sleep(3)
        chat = page.locator("#chat").inner_text()
        tail = chat[chat.rfind("Done in") - 10:]
        held = "Held for review" in tail
        print(f"=== request {i} ({time.time()-t0:.0f} s): {req}\n--- chat end:\n{tail[:900]}", flush=True)
        print("--- disk after run:", sp.run(["git", "status", "--short"], cwd=ws, capture_output=True, text=True).stdout, flush=True)
        if held:
            page.get_by_role("tab", name="Review").click()
            time.sleep(3)
            for _ in range(6):
                if "No staged change" in page.locator("#review-diff").inner_text():
                    break
                page.click("#review-accept")
                page.wait_for_function("document.querySelector('#review-message').innerText.includes('ccept')", timeout=60_000)
                print("review:", page.locator("#review-message").inner_text(), flush=True)
                time.sleep(4)
            page.screenshot(path=f"/tmp/use8_review_{i}.png")
            page.get_by_role("tab", name="Editor").click()
        after = pytest_state()
        print(f"--- tests before: {before} | after: {after}", flush=True)
        print("--- git diff --stat:", sp.run(["git", "diff", "--stat"], cwd=ws, capture_output=True, text=True).stdout, flush=True)
        page.screenshot(path=f"/tmp/use8_{i}.png")
    page.locator("#files li", has_text="report.py").first.get_by_text("report.py", exact=True).click()
    page.keyboard.type("zz")
    time.sleep(4)
    ed = page.evaluate("[...document.querySelectorAll('#editor .cm-line')].map(l => l.textContent).join('\\n')")
    print("editor after click+type:", repr(ed[:120]), "| unsaved:", page.locator("#unsaved").inner_text(), flush=True)
    page.get_by_role("tab", name="Last run").click(); time.sleep(3)
    page.click("#undo")
    page.wait_for_function("/Undid|deletes|confirm/i.test(document.querySelector('#undo-message').innerText)", timeout=120_000)
    msg = page.locator("#undo-message").inner_text(); print("undo:", msg, flush=True)
    if "Undid" not in msg:
        page.click("#undo-confirm"); time.sleep(5); print("undo:", page.locator("#undo-message").inner_text(), flush=True)
    time.sleep(3)
    print("--- after undo, git diff --stat:", sp.run(["git", "diff", "--stat"], cwd=ws, capture_output=True, text=True).stdout, flush=True)
    print("--- tests after undo:", pytest_state(), flush=True)
    b.close()
app.terminate()
print("final diff:\n" + sp.run(["git", "diff"], cwd=ws, capture_output=True, text=True).stdout, flush=True)
