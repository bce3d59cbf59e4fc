#!/usr/bin/env python3
"""Drives the page of `damka serve` in headless Chromium through chromedriver's
WebDriver HTTP protocol (standard library only), as an arbiter would use it:
sets up three kings against one by clicks, enters the moves played of R1, checks
the answer in words against the API's own answer, plays the best move by
clicking it, and saves screenshots.

Usage: browser_test.py SERVER_URL CHROMEDRIVER_URL SCREENSHOT_DIR
"""

import base64
import json
import os
import sys
import time
import urllib.parse
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
FEN = "W:WKa1,Kc1,Ke1:BKh2"
WAIT = 120  # seconds: rule searches on a busy machine take a while


def http(method, url, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        return json.loads(response.read() or b"null")


class Browser:
    """One WebDriver session."""

    def __init__(self, driver):
        self.driver = driver
        capabilities = {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,1000"],
            },
        }
        answer = http("POST", f"{driver}/session",
                      {"capabilities": {"alwaysMatch": capabilities}})
        self.url = f"{driver}/session/{answer['value']['sessionId']}"

    def call(self, method, path, body=None):
        return http(method, self.url + path, body)["value"]

    def find(self, css):
        found = self.call("POST", "/elements", {"using": "css selector", "value": css})
        return found[0][ELEMENT] if found else None

    def wait_for(self, css):
        return wait(lambda: self.find(css), f"an element {css}")

    def click(self, css):
        self.call("POST", f"/element/{self.wait_for(css)}/click", {})

    def text(self, css):
        element = self.find(css)
        return self.call("GET", f"/element/{element}/text") if element else ""

    def value(self, css):
        element = self.find(css)
        return self.call("GET", f"/element/{element}/property/value") if element else ""

    def type_into(self, css, text):
        element = self.wait_for(css)
        # Control+A selects what the field holds, the text replaces it.
        self.call("POST", f"/element/{element}/value", {"text": "\ue009a\ue000" + text})
        self.click("#headline")  # leaving the field fires its change event

    def screenshot(self, path):
        with open(path, "wb") as out:
            out.write(base64.b64decode(self.call("GET", "/screenshot")))
        print(f"saved {path}")

    def resize(self, width, height):
        self.call("POST", "/window/rect", {"width": width, "height": height})

    def close(self):
        http("DELETE", self.url)


def wait(test, what):
    deadline = time.time() + WAIT
    while time.time() < deadline:
        result = test()
        if result:
            return result
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def api(server, path, **params):
    query = urllib.parse.urlencode(params)
    with urllib.request.urlopen(f"{server}/api/{path}?{query}", timeout=WAIT) as response:
        return json.loads(response.read())


def moves_and_plies(plies):
    moves = (plies + 1) // 2
    return f"{moves} move{'s' if moves != 1 else ''} ({plies} {'ply' if plies == 1 else 'plies'})"


def wait_for_answer(browser, counts):
    """Waits until the page shows the answer for the board with `counts`."""
    def shown():
        line = browser.text("#rule-line")
        return line and browser.value("#played-R1") == counts and "…" not in browser.text("#headline")
    wait(shown, f"the answer with R1={counts}")


def main():
    server, driver, out = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    win = api(server, "probe", variant="russian", fen=FEN, rules="russian", played="R1=4")
    cursed = api(server, "probe", variant="russian", fen=FEN, rules="russian", played="R1=14.5")
    assert win["rules"]["wdl"] == "win" and cursed["rules"]["wdl"] == "cursed-win", (win, cursed)

    browser = Browser(driver)
    try:
        browser.call("POST", "/url", {"url": server + "/"})
        browser.wait_for("#board button[data-square='a1']")
        # Three white kings and a black king, by clicks on the board.
        browser.click("input[name=piece][value=wk]")
        for square in ["a1", "c1", "e1"]:
            browser.click(f"#board button[data-square='{square}']")
        browser.click("input[name=piece][value=bk]")
        browser.click("#board button[data-square='h2']")
        wait(lambda: browser.value("#fen") == FEN, f"the FEN field to read {FEN}")
        browser.click("#rules option[value='russian']")

        # 14.5 of R1's 15 moves played: the win no longer fits.
        browser.type_into("#played-R1", "14.5")
        wait_for_answer(browser, "14.5")
        line = browser.text("#rule-line")
        expected = "Win, but drawn by R1: 15 moves are not enough with 14.5 already played"
        assert line == expected, line

        # 4 played: White still wins under the rules.
        browser.type_into("#played-R1", "4")
        wait_for_answer(browser, "4")
        headline, line = browser.text("#headline"), browser.text("#rule-line")
        assert headline == f"White wins in {moves_and_plies(win['dtw'])}", headline
        distance = win["rules"]["distance"]
        expected = f"White wins under russian: the next capture or promotion comes in {distance} plies"
        assert line == expected, line
        best = win["rules"]["best_move"]
        assert f"under russian: {best}" in browser.text("#best"), browser.text("#best")
        first = browser.text("#moves tbody tr:first-child")
        assert first.startswith(best), first
        browser.screenshot(os.path.join(out, "serve-three-kings.png"))
        print(f"answer shown: {headline} / {line}")

        # Play the best move by clicking it in the move list.
        after = next(m for m in win["moves"] if m["notation"] == best)
        browser.click(f"#moves button[data-move='{best}']")
        wait(lambda: browser.value("#fen") == after["after"], "the position after the best move")
        wait_for_answer(browser, "4.5")
        headline = browser.text("#headline")
        assert headline == f"White wins in {moves_and_plies(win['dtw'] - 1)}", headline
        assert browser.text("#side") == "Black to move"
        line = browser.text("#rule-line")
        assert line.startswith("White wins under russian"), line
        browser.screenshot(os.path.join(out, "serve-after-best-move.png"))
        print(f"after {best}: {headline} / {line}")

        # Flipping the board puts White's back rank on top, read from the right.
        browser.click("#flip")
        first = browser.find("#board button")
        square = browser.call("GET", f"/element/{first}/attribute/data-square")
        assert square == "g1", f"top-left dark square after the flip: {square}"
        browser.click("#flip")

        # A phone-sized screen.
        browser.resize(390, 844)
        time.sleep(0.5)
        width = browser.call("POST", "/execute/sync", {
            "script": "return document.documentElement.scrollWidth", "args": []})
        assert width <= 390, f"the page is {width} px wide on a 390 px screen"
        browser.screenshot(os.path.join(out, "serve-phone.png"))
    finally:
        browser.close()
    print("browser test passed")


if __name__ == "__main__":
    main()
