"""deckbox's web page in headless Chromium, driven by Selenium (tests/suite/web_browser.rs).

Arguments: the page's URL, the list to paste, the card to add, the folder for screenshots.
Prints one JSON object: what the page showed at each step, the bytes transferred and the
time to the first verdict (docs/performance.md).
"""

import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

url, broken_list, card, shots, chromium, chromedriver = sys.argv[1:7]
TIMEOUT = 180

options = Options()
options.binary_location = chromium
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--window-size=1280,900", "--hide-scrollbars"):
    options.add_argument(flag)
driver = webdriver.Chrome(options=options, service=Service(chromedriver))
wait = WebDriverWait(driver, TIMEOUT)
out = {}


def ready():
    wait.until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))


def text(element_id):
    return driver.find_element(By.ID, element_id).text


def settle():
    """The page redraws 150 ms after the last input: wait until it did."""
    wait.until(lambda d: d.execute_script(
        "return new Promise(r => setTimeout(() => r(true), 400))"))


def shoot(name, width, height, dark=False):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
    driver.set_window_size(width, height)
    settle()
    path = f"{shots}/{name}.png"
    driver.save_screenshot(path)
    return path


try:
    # First load: the page's files, and the first verdict of a list in a share link.
    driver.get(url)
    ready()
    out["formats"] = [o.get_attribute("value") for o in
                      driver.find_elements(By.CSS_SELECTOR, "#format option")]

    # Paste a broken list: the findings appear under their lines.
    area = driver.find_element(By.ID, "list")
    area.click()
    driver.execute_script(
        "const a = arguments[0]; a.value = arguments[1];"
        "a.dispatchEvent(new Event('input', {bubbles: true}));", area, broken_list)
    area.send_keys(Keys.END)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".finding"))
    settle()
    out["broken_summary"] = text("summary")
    out["findings"] = [f.find_element(By.CSS_SELECTOR, ".rule").text
                       for f in driver.find_elements(By.CSS_SELECTOR, ".finding")]
    out["finding_text"] = [f.text for f in driver.find_elements(By.CSS_SELECTOR, ".finding")]
    out["shots"] = [shoot("web-1280-broken", 1280, 900), shoot("web-390-broken", 390, 844)]
    driver.set_window_size(1280, 900)

    # Fix it: search the missing card and add it from the results.
    query = driver.find_element(By.ID, "query")
    query.clear()
    query.send_keys(card, Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results .printings button"))
    out["search_status"] = text("search-status")
    driver.find_elements(By.CSS_SELECTOR, "#results .printings button")[0].click()
    wait.until(lambda d: "invalid" not in text("summary") and text("summary"))
    settle()
    out["fixed_summary"] = text("summary")
    out["added_status"] = text("search-status")
    out["list_after"] = driver.find_element(By.ID, "list").get_attribute("value")
    out["mulligan"] = text("mulligan")
    out["cli"] = driver.find_element(By.ID, "cli").get_attribute("value")

    # Share: the link reopens the same page in a fresh tab.
    driver.find_element(By.ID, "share").click()
    wait.until(lambda d: d.find_element(By.ID, "share-url").get_attribute("value"))
    link = driver.find_element(By.ID, "share-url").get_attribute("value")
    out["share_link"] = link
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(link)
    ready()
    wait.until(lambda d: text("summary") and "Paste" not in text("summary"))
    settle()
    out["shared_list"] = driver.find_element(By.ID, "list").get_attribute("value")
    out["shared_summary"] = text("summary")
    out["shared_mulligan"] = text("mulligan")
    # What the first load of a shared list cost: bytes over the wire and time to verdict.
    timing = driver.execute_script("""
        const nav = performance.getEntriesByType('navigation')[0];
        const resources = performance.getEntriesByType('resource');
        const mark = performance.getEntriesByName('deckbox:first-verdict')[0];
        return {
          transferred: nav.transferSize + resources.reduce((n, r) => n + r.transferSize, 0),
          decoded: nav.decodedBodySize + resources.reduce((n, r) => n + r.decodedBodySize, 0),
          files: [nav.name, ...resources.map(r => r.name)],
          first_verdict_ms: mark ? mark.startTime : null,
        };
    """)
    out["timing"] = timing
    out["shots"] += [shoot("web-1280", 1280, 900), shoot("web-390", 390, 844),
                     shoot("web-1280-dark", 1280, 900, dark=True)]
    driver.close()
    driver.switch_to.window(first)
finally:
    driver.quit()

print(json.dumps(out))
