import re, subprocess as sp, time, json
from pathlib import Path
from playwright.sync_api import sync_playwright
ws = Path("/tmp/uproj2")
REQS = [
    "Add a method remove(name, qty=1) to Inventory in inventory.py that lowers the quantity and drops the item when it reaches 0; raise KeyError for an unknown name.",
    "Also make it raise ValueError if qty is more than what is in stock.",
    "Add a line 'items: N' with the number of different items to the report in report.py, before the total.",
    "Rename total to total_value in inventory.py and update report.py and the tests to use it.",
    "cheapest() crashes on an empty inventory. Make it return None then.",
    "Write main.py that builds an inventory of three fruits and prints the report.",
]
def pytest_state():
    r = sp.run(["/work/main/.venv/bin/python", "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=ws, capture_output=True, text=True, timeout=120)
    return r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-200:]
log = open("/tmp/use_ide2_app.log", "w")
app = sp.Popen(["/work/main/.venv/bin/python", "app.py", "--no-browser", "--port", "7872", "--workspace", str(ws),
                "--model", "qwen2.5-coder-0.5b-q4_k_m"], cwd="/work/main", stdout=sp.PIPE, stderr=log, text=True,
               env=dict(__import__("os").environ, LOCALCREW_CONFIG_DIR="/tmp/use2cfg"))
url = None
for line in app.stdout:
    m = re.search(r"(http://127\.0\.0\.1:7872/\?token=\S+)", line)
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
            page.screenshot(path=f"/tmp/use2_review_{i}.png")
            page.get_by_role("tab", name="Editor").click()
        after = pytest_state()
        print(f"--- tests before: {before} | after: {after}", flush=True)
        print("--- git diff --stat:", sp.run(["git", "diff", "--stat"], cwd=ws, capture_output=True, text=True).stdout, flush=True)
        page.screenshot(path=f"/tmp/use2_{i}.png")
    b.close()
app.terminate()
print("final diff:\n" + sp.run(["git", "diff"], cwd=ws, capture_output=True, text=True).stdout, flush=True)
