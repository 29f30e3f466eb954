"""Drive the running IDE in chromium over CDP, one action per call (a user's session, scripted)."""
import json, subprocess, sys, time
from pathlib import Path
from playwright.sync_api import sync_playwright

REC = Path("/work/rec/ide6")
PROJ = REC / "proj"

def page_of(pw):
    browser = pw.chromium.connect_over_cdp("http://127.0.0.1:9333")
    ctx = browser.contexts[0]
    return browser, ctx.pages[0] if ctx.pages else ctx.new_page()

def state():
    git = subprocess.run(["git", "status", "--short"], cwd=PROJ, capture_output=True, text=True).stdout.strip()
    t = subprocess.run(["/work/main/.venv/bin/python", "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=PROJ, capture_output=True, text=True).stdout.strip().splitlines()
    entry = subprocess.run(["/work/main/.venv/bin/python", "main.py", "marks.csv"], cwd=PROJ, capture_output=True, text=True)
    return {"git": git, "tests": t[-1] if t else "", "cli_rc": entry.returncode, "cli_err": entry.stderr[-300:]}

def shot(page, name):
    page.screenshot(path=str(REC / "shots" / f"{name}.png"), full_page=False)

def wait_run(page, limit=1800):
    t0 = time.time()
    started = False
    while time.time() - t0 < 40 and not started:
        started = bool(page.locator("#run-line").inner_text().strip())
        time.sleep(1)
    quiet = 0
    while time.time() - t0 < limit:
        line = page.locator("#run-line").inner_text().strip()
        quiet = quiet + 1 if not line else 0
        if quiet >= 3:
            break
        time.sleep(5)
    return time.time() - t0

def main():
    cmd = sys.argv[1]
    with sync_playwright() as pw:
        browser, page = page_of(pw)
        out = {}
        if cmd == "open":
            page.set_viewport_size({"width": 1366, "height": 768})
            page.goto(sys.argv[2]); page.wait_for_selector("#request textarea", timeout=300_000)
        elif cmd == "send":
            before = page.locator("#chat").inner_text()
            page.fill("#request textarea", sys.argv[2]); page.click("#send")
            out["seconds"] = round(wait_run(page), 1)
            chat = page.locator("#chat").inner_text()
            out["new"] = chat[len(before) - 200:] if chat.startswith(before[:200]) else chat[-4000:]
        elif cmd == "chat":
            out["chat"] = page.locator("#chat").inner_text()[-int(sys.argv[2]) if len(sys.argv) > 2 else -4000:]
        elif cmd == "tab":
            page.get_by_role("tab", name=sys.argv[2]).click(); time.sleep(3)
            sel = sys.argv[3] if len(sys.argv) > 3 else None
            if sel: out["text"] = page.locator(sel).inner_text()
        elif cmd == "click":
            page.click(sys.argv[2]); time.sleep(float(sys.argv[4]) if len(sys.argv) > 4 else 4)
            if len(sys.argv) > 3: out["text"] = page.locator(sys.argv[3]).inner_text()
        elif cmd == "text":
            out["text"] = page.locator(sys.argv[2]).inner_text()
        elif cmd == "eval":
            out["value"] = page.evaluate(sys.argv[2])
        name = f"{int(time.time())}-{cmd}"
        shot(page, name); out["shot"] = name
        if cmd in ("send", "click", "state"):
            out["state"] = state()
        print(json.dumps(out, indent=1))

main()
