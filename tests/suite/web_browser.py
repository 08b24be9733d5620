"""deckbox's web page in headless Chromium, driven by Selenium (tests/suite/web_browser.rs).

Arguments: the page's URL, the list to paste, the card to add, the folder for screenshots,
the chromium and chromedriver binaries, and the whole list (opened first from a share link). Prints one JSON object: what the page showed at
each step, what the first load cost (bytes and time to the first verdict,
docs/performance.md), the card texts fetched after it (then the network is cut until the
share link: search and card text work offline), the keyboard walk, the contrast of the main texts in light and dark,
and the controls without a label.
"""

import base64
import json
import os
import sys
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

url, broken_list, card, shots, chromium, chromedriver, whole_list = sys.argv[1:8]
# The list dropped as a Windows-1252 file.
DROPPED = "Pokémon: 1\n4 Évoli SVI 173\n"
TIMEOUT = 180
# The most Tab presses a walk through the page takes before it is called a trap.
TAB_LIMIT = 400

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


def scheme(dark):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})


def shoot(name, width, height, dark=False):
    scheme(dark)
    driver.set_window_size(width, height)
    settle()
    path = f"{shots}/{name}.png"
    driver.execute_script("document.activeElement && document.activeElement.blur(); scrollTo(0, 0);")
    driver.save_screenshot(path)
    # And the whole page, not only the window, in pieces an image viewer shows whole: what
    # is cut or overflows below shows too.
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    piece = 2 * height
    for k, top in enumerate(range(0, int(size["height"]), piece)):
        full = driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": top, "width": width,
                     "height": min(piece, size["height"] - top), "scale": 1}})
        with open(f"{shots}/{name}-full-{k}.png", "wb") as png:
            png.write(base64.b64decode(full["data"]))
    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth > document.documentElement.clientWidth")
    scheme(False)
    return {"path": path, "width": width, "dark": dark, "overflows": overflow}


def fragment(list_text):
    """The share link's fragment the page writes (app.js `shareLink`): deflate-raw, base64url."""
    state = {"list": list_text, "format": "standard", "date": "", "going": "first",
             "turns": 4, "want": []}
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(json.dumps(state).encode()) + packer.flush()
    return "#v1=" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


# What the first load cost: the files asked for before the first verdict (the card texts,
# fetched after it, are in `later`).
LOAD = """
const nav = performance.getEntriesByType('navigation')[0];
const resources = performance.getEntriesByType('resource');
const mark = performance.getEntriesByName('deckbox:first-verdict')[0];
const before = (r) => !mark || r.startTime < mark.startTime;
const files = [nav, ...resources].filter(before).map(r => ({
  name: r.name, transferred: r.transferSize, raw: r.decodedBodySize, encoded: r.encodedBodySize,
}));
return {
  later: resources.filter(r => !before(r)).map(r => ({ name: r.name, start_ms: r.startTime })),
  transferred: files.reduce((n, f) => n + f.transferred, 0),
  raw: files.reduce((n, f) => n + f.raw, 0),
  files,
  first_verdict_ms: mark ? mark.startTime : null,
};
"""

# The element that has the focus: what it is, and whether its focus ring shows.
FOCUSED = """
const e = document.activeElement;
if (!e || e === document.body || e === document.documentElement) return null;
const s = getComputedStyle(e);
const r = e.getBoundingClientRect();
const name = (e.getAttribute('aria-label') || (e.labels && e.labels[0] && e.labels[0].textContent)
  || e.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60);
return {
  id: e.id, tag: e.tagName.toLowerCase(), name,
  in_finding: !!e.closest('.finding'), section: (e.closest('section, header, footer') || {}).id || e.closest('footer') && 'footer' || '',
  focus_visible: e.matches(':focus-visible'), outline: s.outlineStyle,
  outline_width: parseFloat(s.outlineWidth) || 0, visible: r.width > 0 && r.height > 0,
};
"""


def tab_walk():
    """Tab from the top of the page until the focus leaves it: each stop, in order."""
    driver.execute_script("document.activeElement && document.activeElement.blur(); scrollTo(0, 0);")
    driver.find_element(By.TAG_NAME, "h1").click()
    stops = []
    for _ in range(TAB_LIMIT):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        stop = driver.execute_script(FOCUSED)
        if stop is None:
            return {"stops": stops, "left_the_page": True}
        stops.append(stop)
    return {"stops": stops, "left_the_page": False}


# WCAG 2 contrast of each main text against what is behind it, from computed styles.
CONTRAST = """
const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
  const v = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
const lum = ([r, g, b]) => { const f = (x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
const behind = (e) => { for (let n = e; n; n = n.parentElement) {
  const c = parse(getComputedStyle(n).backgroundColor); if (c && c[3] > 0.5) return c; }
  return parse(getComputedStyle(document.documentElement).backgroundColor) || [255, 255, 255, 1]; };
const out = [];
for (const selector of arguments[0]) {
  const e = [...document.querySelectorAll(selector)].find((n) => { const r = n.getBoundingClientRect(); return r.width > 0 && r.height > 0; });
  if (!e) { out.push({ selector, ratio: null }); continue; }
  const s = getComputedStyle(e);
  const fg = parse(e instanceof SVGElement ? s.fill : s.color);
  const bg = behind(e instanceof SVGElement ? e.closest('svg').parentElement : e);
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  out.push({ selector, ratio: Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100, fg: s.color, bg: `rgb(${bg.slice(0, 3)})` });
}
return out;
"""

TEXTS = ["header h1", "header p", "h2", "#deck label", "#list", "#format", "#date",
         "button:not(.quiet)", "button.quiet", "#cli", ".note", "#summary", ".lines .no",
         ".lines .text", ".finding .rule", ".finding .message", ".finding .label",
         ".finding .help", ".finding summary", "#mulligan", "#odds caption", "#odds th",
         "#odds td", "#charts h3", "#charts .note", "#charts svg text", "#charts .legend li",
         "#query", "footer p", "footer a"]

# Inputs without a label, and buttons without a name.
UNLABELLED = """
const out = [];
for (const e of document.querySelectorAll('input, select, textarea')) {
  if (!(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby')) out.push(e.id || e.outerHTML.slice(0, 80));
}
for (const e of document.querySelectorAll('button, summary, a[href]')) {
  if (!(e.getAttribute('aria-label') || e.textContent.trim())) out.push(e.outerHTML.slice(0, 80));
}
return out;
"""


def contrast():
    settle()
    return driver.execute_script(CONTRAST, TEXTS)


try:
    # First load, cold cache: a share link holding a list, as a player opens one. With
    # DECKBOX_WEB_MBIT set, over a network that slow (20 ms latency), as DevTools emulates it.
    mbit = float(os.environ.get("DECKBOX_WEB_MBIT") or 0)
    if mbit:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 20,
            "downloadThroughput": mbit * 1e6 / 8, "uploadThroughput": mbit * 1e6 / 8})
    driver.get(url + fragment(whole_list))
    ready()
    wait.until(lambda d: text("summary").startswith("valid"))
    out["load"] = driver.execute_script(LOAD)
    # The card texts come after the first verdict, in the background.
    wait.until(lambda d: d.execute_script("return document.body.dataset.texts === 'loaded'"))
    out["prefetched"] = driver.execute_script(LOAD)["later"]
    out["prefetch_cached"] = driver.execute_script(
        "return caches.open('deckbox-texts').then(c => c.keys()).then(k => k.map(r => r.url))")
    # From here to the share link, the network is cut: the page works offline once loaded,
    # search and card text included.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    out["offline"] = driver.execute_script(
        "return fetch('index.html', {cache: 'no-store'}).then(() => 'fetched', e => 'refused')")
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
    out["charts"] = len(driver.find_elements(By.CSS_SELECTOR, "#charts svg.chart"))
    out["shots"] = [shoot("web-1280-broken", 1280, 900), shoot("web-390-broken", 390, 844)]
    driver.set_window_size(1280, 900)

    # Keyboard: the whole page by Tab, then Enter and Space on what the walk reached.
    out["unlabelled"] = driver.execute_script(UNLABELLED)
    out["tab"] = tab_walk()
    why = driver.find_element(By.CSS_SELECTOR, ".finding summary")
    driver.execute_script("arguments[0].focus()", why)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    out["enter_opens_why"] = driver.execute_script(
        "return document.querySelector('.finding details').open")
    out["contrast_light"] = contrast()
    scheme(True)
    out["contrast_dark"] = contrast()
    scheme(False)

    # Fix it by keyboard: search the missing card (Enter), add it from the results (Space).
    query = driver.find_element(By.ID, "query")
    query.click()
    query.clear()
    query.send_keys(card, Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results .printings button"))
    out["search_status"] = text("search-status")
    add = driver.find_elements(By.CSS_SELECTOR, "#results .printings button")[0]
    driver.execute_script("arguments[0].focus()", add)
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    wait.until(lambda d: "invalid" not in text("summary") and text("summary"))
    settle()
    out["fixed_summary"] = text("summary")
    out["added_status"] = text("search-status")
    out["list_after"] = driver.find_element(By.ID, "list").get_attribute("value")
    out["mulligan"] = text("mulligan")
    out["cli"] = driver.find_element(By.ID, "cli").get_attribute("value")
    # The card's text, from the card texts fetched after the first verdict.
    card_text = driver.find_element(By.CSS_SELECTOR, "#results .card-head button")
    driver.execute_script("arguments[0].focus()", card_text)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#results li pre").text)
    out["card_text"] = driver.find_element(By.CSS_SELECTOR, "#results li pre").text
    out["texts_fetched"] = [r for r in driver.execute_script(
        "return performance.getEntriesByType('resource').map(r => r.name)") if "deckbox_texts" in r]
    driver.set_window_size(1280, 900)
    settle()
    # The report's charts alone (docs/web.md shows them), whole.
    box = driver.execute_script(
        "const r = document.getElementById('charts').getBoundingClientRect();"
        "return {x: r.left + scrollX - 8, y: r.top + scrollY - 8, width: r.width + 16, height: r.height + 16, scale: 1};")
    charts = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True, "clip": box})
    with open(f"{shots}/web-charts.png", "wb") as png:
        png.write(base64.b64decode(charts["data"]))
    out["shots"] += [shoot("web-1280", 1280, 900), shoot("web-390", 390, 844),
                     shoot("web-1280-dark", 1280, 900, dark=True),
                     shoot("web-390-dark", 390, 844, dark=True)]
    driver.set_window_size(1280, 900)

    out["still_offline"] = driver.execute_script(
        "return fetch('index.html', {cache: 'no-store'}).then(() => 'fetched', e => 'refused')")
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

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
    # A search in the new tab reads the card texts from the Cache API: no request.
    query = driver.find_element(By.ID, "query")
    query.click()
    query.send_keys(card, Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results .printings button"))
    out["shared_search_status"] = text("search-status")
    out["shared_texts_fetched"] = [r for r in driver.execute_script(
        "return performance.getEntriesByType('resource').map(r => r.name)") if "deckbox_texts" in r]
    out["cached"] = driver.execute_script(
        "return caches.open('deckbox-texts').then(c => c.keys()).then(k => k.map(r => r.url))")
    driver.close()
    driver.switch_to.window(first)

    # A list saved in Windows-1252 (an old Windows export), dropped on the list: the page
    # reads it as `deckbox check` reads the file, not as UTF-8 (`é` a replacement character).
    driver.execute_script("""
const [area, text] = arguments;
const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
const data = new DataTransfer();
data.items.add(new File([bytes], "deck.txt"));
area.dispatchEvent(new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
""", driver.find_element(By.ID, "list"), DROPPED)
    wait.until(lambda d: d.find_element(By.ID, "list").get_attribute("value") != out["list_after"])
    out["dropped"] = driver.find_element(By.ID, "list").get_attribute("value")
finally:
    driver.quit()

print(json.dumps(out))
