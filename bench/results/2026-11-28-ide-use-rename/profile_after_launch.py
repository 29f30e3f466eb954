"""Try: a profile saved after launch, chosen in a reloaded page, then Save."""
import json, sys, time
from pathlib import Path
sys.path.insert(0, "/work/main")
sys.path.insert(0, "/work/main/tests")
from app_process import serve_app
from playwright.sync_api import sync_playwright

root = Path("/tmp/try/run"); root.mkdir(parents=True, exist_ok=True)
prof = Path("/work/main/profiles/zz-after-launch.json")
try:
    with serve_app(tmp_path=root) as app:
        prof.write_text(json.dumps({"name": "zz-after-launch", "disabled": ["keep_best"]}))
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path="/usr/bin/chromium")
            page = b.new_page(viewport={"width": 1366, "height": 768})
            page.goto(app.url); page.wait_for_selector("#request textarea", timeout=180_000)
            page.get_by_role("tab", name="Settings").click()
            page.click("#crew-profile input")
            time.sleep(1)
            opts = page.locator("ul[role=listbox] li").all_inner_texts()
            print("options:", opts)
            page.locator("ul[role=listbox] li", has_text="zz-after-launch").first.click()
            time.sleep(1)
            page.click("#save-settings")
            time.sleep(5)
            print("message:", page.locator("#settings-message").inner_text())
            page.screenshot(path="/tmp/try/after.png")
            b.close()
        print("saved:", (root / "config" / "settings.json").read_text() if (root / "config" / "settings.json").exists() else None)
        print(app.log()[-2000:])
finally:
    prof.unlink(missing_ok=True)
