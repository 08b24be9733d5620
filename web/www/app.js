// deckbox's page: the list, options and answers on screen. Every answer comes from the
// WebAssembly build of the deckbox library (deckbox_web.js): the JSON `--output json` prints.
// Nothing is sent anywhere: the share link keeps the list in the URL's fragment.
import init, * as deckbox from "./deckbox_web.js";

const $ = (id) => document.getElementById(id);
const list = $("list");
const format = $("format");
const date = $("date");
const going = $("going");
const turns = $("turns");
const want = $("want");

/** Today in the reader's calendar, YYYY-MM-DD. */
function today() {
  const now = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    // Through the CSSOM: the page's Content-Security-Policy refuses style attributes.
    else if (key === "width") node.style.width = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A probability as a percentage with one decimal. */
const percent = (p) => (p === null || p === undefined ? "–" : `${(p * 100).toFixed(1)}%`);

function deckOptions() {
  return {
    format: format.value,
    date: date.value || today(),
  };
}

function wants() {
  return want.value.split("\n").map((line) => line.trim()).filter(Boolean);
}

/** Calls the library; an error is its message, as the CLI prints it after `error:`. */
function call(fn, ...args) {
  try {
    return { value: fn(...args) };
  } catch (error) {
    return { error: String(error && error.message ? error.message : error) };
  }
}

// ---- card texts ---------------------------------------------------------------------------

// The card texts (attacks, abilities, rules text) are not in the .wasm: the first verdict
// does not need them. Once the page is drawn, it fetches them in the background when the
// browser is idle (`prefetchTexts`), so search and card text work offline after the first
// load. `cargo xtask web` writes this name with a hash of the file's content, so a copy kept
// in the Cache API is good until the texts change.
const TEXTS = "deckbox_texts.bin";
const TEXTS_CACHE = "deckbox-texts";
let texts = null;

/** Fetches the card texts once (from the browser's cache after the first time). */
function loadTexts() {
  texts ??= (async () => {
    if (deckbox.hasTexts()) return;
    // The Cache API exists on https:// and 127.0.0.1 pages; elsewhere the HTTP cache serves.
    const cache = globalThis.caches ? await caches.open(TEXTS_CACHE).catch(() => null) : null;
    const url = new URL(TEXTS, location.href).href;
    let response = cache ? await cache.match(url) : undefined;
    if (!response) {
      response = await fetch(url);
      if (!response.ok) throw new Error(`${TEXTS}: ${response.status}`);
      if (cache) {
        await cache.put(url, response.clone());
        for (const old of await cache.keys()) if (old.url !== url) await cache.delete(old);
      }
    }
    deckbox.loadTexts(new Uint8Array(await response.arrayBuffer()));
    // A note naming an attack or ability (`Marshadow (Reset Hole)`) chooses its card by the
    // texts: the verdict drawn before they came is drawn again, as `deckbox check` says it.
    drawVerdict(list.value);
  })();
  texts.catch(() => (texts = null));
  return texts;
}

/** Once the page is drawn, when the browser is idle: the card texts, into the Cache API. */
function prefetchTexts() {
  const idle = globalThis.requestIdleCallback ?? ((run) => setTimeout(run, 200));
  idle(() => loadTexts().then(() => (document.body.dataset.texts = "loaded"), () => {}), { timeout: 5000 });
}

// ---- verdict ----------------------------------------------------------------------------

const explained = new Map();
function explainRule(rule) {
  if (!explained.has(rule)) explained.set(rule, call(deckbox.explain, rule).value || "");
  return explained.get(rule);
}

function finding(diagnostic) {
  const severity = diagnostic.severity === "error" ? "error" : "warning";
  const why = explainRule(diagnostic.rule);
  return el(
    "div",
    { class: `finding ${severity}`, role: "note" },
    el("p", {}, el("span", { class: "rule" }, diagnostic.rule), ` (${diagnostic.severity})`),
    el("p", { class: "message" }, diagnostic.message),
    diagnostic.label ? el("p", { class: "label" }, diagnostic.label) : null,
    diagnostic.help ? el("p", { class: "help" }, diagnostic.help) : null,
    why ? el("details", {}, el("summary", {}, "Why (deckbox explain)"), el("pre", {}, why)) : null,
  );
}

function drawVerdict(text) {
  const verdict = $("verdict");
  const summary = $("summary");
  verdict.replaceChildren();
  summary.className = "";
  if (!text.trim()) {
    summary.textContent = "Paste a list to check it.";
    return;
  }
  if (format.value === "all") return drawEverywhere(text);
  const answer = call(deckbox.check, text, JSON.stringify(deckOptions()));
  if (answer.error) {
    summary.textContent = `error: ${answer.error}`;
    summary.className = "invalid";
    return;
  }
  const deck = JSON.parse(answer.value).decks[0];
  const counts = [];
  if (deck.errors) counts.push(`${deck.errors} error${deck.errors === 1 ? "" : "s"}`);
  if (deck.warnings) counts.push(`${deck.warnings} warning${deck.warnings === 1 ? "" : "s"}`);
  summary.textContent = `${deck.valid ? "valid" : "invalid"}${counts.length ? ", " + counts.join(", ") : ""} (${deck.card_count} cards, format ${deck.format} as of ${deck.as_of})`;
  summary.className = deck.valid ? "valid" : "invalid";
  if (!performance.getEntriesByName("deckbox:first-verdict").length) performance.mark("deckbox:first-verdict");
  const byLine = new Map();
  const loose = [];
  const marked = new Set();
  for (const diagnostic of deck.diagnostics) {
    if (diagnostic.line) {
      if (!byLine.has(diagnostic.line)) byLine.set(diagnostic.line, []);
      byLine.get(diagnostic.line).push(diagnostic);
      marked.add(diagnostic.line);
      for (const related of diagnostic.related || []) marked.add(related.line);
    } else {
      loose.push(diagnostic);
    }
  }
  if (loose.length) verdict.append(el("li", {}, loose.map(finding)));
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  lines.forEach((line, index) => {
    const number = index + 1;
    verdict.append(
      el(
        "li",
        { class: marked.has(number) ? "marked" : "" },
        el("span", { class: "no", "aria-hidden": "true" }, number),
        el("span", { class: "text" }, line || " "),
        (byLine.get(number) || []).map(finding),
      ),
    );
  });
}

function drawEverywhere(text) {
  const answer = call(deckbox.check, text, JSON.stringify(deckOptions()));
  const summary = $("summary");
  if (answer.error) {
    summary.textContent = `error: ${answer.error}`;
    return;
  }
  const deck = JSON.parse(answer.value)[0];
  const legal = deck.formats.filter((f) => f.valid).map((f) => f.format);
  summary.textContent = legal.length ? `legal in ${legal.join(", ")} (as of ${deck.as_of})` : `legal in no format (as of ${deck.as_of})`;
  summary.className = legal.length ? "valid" : "invalid";
  const table = el(
    "table",
    {},
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "format"), el("th", { scope: "col" }, "verdict"), el("th", { scope: "col" }, "errors"), el("th", { scope: "col" }, "warnings"), el("th", { scope: "col" }, "rules broken"))),
    el(
      "tbody",
      {},
      deck.formats.map((f) =>
        el("tr", {}, el("td", {}, f.name), el("td", {}, f.valid ? "legal" : "not legal"), el("td", {}, f.errors), el("td", {}, f.warnings), el("td", {}, (f.broken || []).join(", "))),
      ),
    ),
  );
  $("verdict").append(el("li", { class: "everywhere" }, el("div", { class: "scroll" }, table)));
}

// ---- odds -------------------------------------------------------------------------------

function drawOdds(text) {
  const table = $("odds");
  const mulligan = $("mulligan");
  const events = $("events");
  table.replaceChildren();
  events.replaceChildren();
  $("charts").replaceChildren();
  mulligan.textContent = "";
  if (!text.trim()) return;
  const options = {
    ...deckOptions(),
    format: format.value === "all" ? undefined : format.value,
    going: going.value,
    turns: Number(turns.value) || 4,
    want: wants(),
  };
  const answer = call(deckbox.stats, text, JSON.stringify(options));
  if (answer.error) {
    mulligan.textContent = `No odds: ${answer.error}`;
    return;
  }
  const report = JSON.parse(answer.value);
  mulligan.textContent = `P(mulligan) = ${percent(report.mulligan.probability)}`;
  drawCharts(text, options);
  for (const event of report.events || []) {
    events.append(el("p", {}, el("code", {}, event.query), `: ${percent(event.probability)}`));
  }
  const turnHeads = (report.cards[0]?.by_turn || []).map((_, t) => el("th", { scope: "col" }, `by T${t + 1}`));
  table.append(
    el("caption", { class: "note" }, `${report.deck.cards} cards, going ${report.setup.going}; P(at least one copy)`),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "card"), el("th", { scope: "col" }, "copies"), el("th", { scope: "col" }, "opening hand"), turnHeads, el("th", { scope: "col" }, "prized"))),
    el(
      "tbody",
      {},
      report.cards.map((card) =>
        el(
          "tr",
          {},
          el("td", {}, card.name),
          el("td", {}, card.copies),
          el("td", {}, el("span", { class: "bar", width: `${Math.round(card.opening_hand * 40)}px`, "aria-hidden": "true" }), percent(card.opening_hand)),
          card.by_turn.map((p) => el("td", {}, percent(p))),
          el("td", {}, percent(card.prized_at_least_one)),
        ),
      ),
    ),
  );
}

/** The charts of `deckbox stats -o report.html`, drawn by the library (SVG). */
function drawCharts(text, options) {
  const charts = $("charts");
  const answer = call(deckbox.statsCharts, text, JSON.stringify(options));
  charts.innerHTML = answer.error ? "" : answer.value;
  // The report's sections sit inside the odds panel: one heading level down.
  for (const h2 of charts.querySelectorAll("h2")) {
    h2.replaceWith(el("h3", {}, h2.textContent));
  }
}

// ---- search and build -------------------------------------------------------------------

/** Adds one copy of `printing` through the library's builder, which writes the line. */
function addPrinting(query, printing) {
  const builder = new deckbox.DeckBuilder(list.value, JSON.stringify(deckOptions()));
  try {
    for (const q of [query, `${printing.name} ${printing.set} ${printing.number}`]) {
      const results = JSON.parse(builder.search(q));
      const row = results.findIndex((r) => r.set === printing.set && r.number === printing.number);
      if (row >= 0) {
        builder.add(row);
        const said = builder.message();
        setList(builder.text());
        $("search-status").textContent = said || `added 1 ${printing.name} ${printing.set} ${printing.number}`;
        return;
      }
    }
    $("search-status").textContent = `${printing.name} ${printing.set} ${printing.number} could not be added`;
  } finally {
    builder.free();
  }
}

function cardText(printing) {
  const answer = call(deckbox.card, `${printing.set} ${printing.number}`, JSON.stringify({ date: date.value || today() }));
  if (answer.error) return answer.error;
  const report = JSON.parse(answer.value);
  const out = [];
  for (const card of report.cards) {
    for (const p of card.printings) {
      if (p.set !== printing.set || p.number !== printing.number || !p.details) continue;
      const d = p.details;
      if (d.hp) out.push(`HP ${d.hp}${d.retreat !== null && d.retreat !== undefined ? `, retreat ${d.retreat}` : ""}`);
      for (const a of d.abilities || []) out.push(`Ability: ${a.name}\n${a.text}`);
      for (const a of d.attacks || []) out.push(`${(a.cost || []).join(" ")} ${a.name} ${a.damage || ""}`.trim() + (a.text ? `\n${a.text}` : ""));
      if (d.text) out.push(d.text);
      for (const rule of p.rules || []) out.push(rule);
      return out.join("\n\n") || "(no text)";
    }
  }
  return "(no text)";
}

async function drawSearch(event) {
  event?.preventDefault();
  const query = $("query").value.trim();
  const results = $("results");
  results.replaceChildren();
  if (!query) return;
  if (!deckbox.hasTexts()) {
    $("search-status").textContent = "loading the card texts (once)…";
    try {
      await loadTexts();
    } catch (error) {
      $("search-status").textContent = `the card texts could not be loaded: ${error.message || error}`;
      return;
    }
  }
  const answer = call(deckbox.search, query, "{}");
  if (answer.error) {
    $("search-status").textContent = answer.error;
    return;
  }
  const found = JSON.parse(answer.value).cards;
  $("search-status").textContent = found.length ? `${found.length} card${found.length === 1 ? "" : "s"}` : `no card matches \`${query}\``;
  for (const card of found.slice(0, 50)) {
    const printings = card.printings.filter((p) => p.matched !== false).slice(-8).reverse();
    const text = el("pre", { hidden: "" });
    const first = printings[0];
    results.append(
      el(
        "li",
        {},
        el(
          "div",
          { class: "card-head" },
          el("strong", {}, card.name),
          first ? el("button", { type: "button", class: "quiet", "aria-expanded": "false", onclick: (e) => {
            const open = text.hidden;
            if (open && !text.textContent) text.textContent = cardText(first);
            text.hidden = !open;
            e.currentTarget.setAttribute("aria-expanded", String(open));
          } }, "Card text") : null,
        ),
        text,
        el(
          "div",
          { class: "printings" },
          printings.map((p) =>
            el("button", { type: "button", "aria-label": `Add ${p.name} ${p.set} ${p.number}`, onclick: () => addPrinting(query, p) }, `+ ${p.set} ${p.number}`),
          ),
        ),
      ),
    );
  }
}

/** The list's card lines as the builder sees them, with remove and change-printing. */
function drawRows() {
  const rows = $("rows");
  rows.replaceChildren();
  if (!list.value.trim()) return;
  let builder;
  try {
    builder = new deckbox.DeckBuilder(list.value, JSON.stringify(deckOptions()));
  } catch (error) {
    return;
  }
  const edit = (row, action) => {
    const b = new deckbox.DeckBuilder(list.value, JSON.stringify(deckOptions()));
    try {
      b[action](row);
      const said = b.message();
      setList(b.text());
      $("search-status").textContent = said;
    } finally {
      b.free();
    }
  };
  try {
    JSON.parse(builder.rows()).forEach((row, index) => {
      const label = `${row.name}${row.set ? ` ${row.set} ${row.number}` : ""}`;
      rows.append(
        el(
          "li",
          {},
          `${row.count} ${label}`,
          el(
            "span",
            { class: "edit" },
            el("button", { type: "button", class: "quiet", "aria-label": `Remove one ${label}`, onclick: () => edit(index, "remove") }, "−1"),
            el("button", { type: "button", class: "quiet", "aria-label": `Next legal printing of ${label}`, onclick: () => edit(index, "cyclePrinting") }, "printing"),
          ),
        ),
      );
    });
  } finally {
    builder.free();
  }
}

// ---- share, CLI line, export -------------------------------------------------------------

function base64url(bytes) {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unbase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function state() {
  return { list: list.value, format: format.value, date: date.value, going: going.value, turns: Number(turns.value) || 4, want: wants() };
}

async function shareLink() {
  const json = new TextEncoder().encode(JSON.stringify(state()));
  const packed = await pipe(json, new CompressionStream("deflate-raw"));
  const url = new URL(location.href);
  url.hash = `v1=${base64url(packed)}`;
  return url.toString();
}

async function readFragment() {
  const match = /^#v1=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!match) return null;
  const bytes = await pipe(unbase64url(match[1]), new DecompressionStream("deflate-raw"));
  return JSON.parse(new TextDecoder().decode(bytes));
}

function shellWord(word) {
  return /^[A-Za-z0-9_./=:-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

function cliLine() {
  const words = ["deckbox", "check", "deck.txt", "--format", format.value, "--as-of", date.value || today()];
  let line = words.map(shellWord).join(" ");
  const queries = wants();
  if (queries.length) {
    const stats = ["deckbox", "stats", "deck.txt", "--format", format.value === "all" ? "standard" : format.value, "--as-of", date.value || today(), "--going", going.value, "--turns", String(Number(turns.value) || 4)];
    for (const q of queries) stats.push("--want", q);
    line += ` && ${stats.map(shellWord).join(" ")}`;
  }
  return line;
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

// ---- wiring -----------------------------------------------------------------------------

let timer = 0;
let shareTimer = 0;
/** Draws every answer for the list and options now. */
function draw() {
  const text = list.value;
  drawVerdict(text);
  drawOdds(text);
  drawRows();
  $("cli").value = cliLine();
  clearTimeout(shareTimer);
  shareTimer = setTimeout(async () => {
    $("share-url").value = await shareLink();
  }, 0);
}

/** Redraws once typing pauses. */
function update() {
  clearTimeout(timer);
  timer = setTimeout(draw, 150);
}

function setList(text) {
  list.value = text;
  update();
}

async function main() {
  await init();
  for (const id of [...JSON.parse(deckbox.formats()), "all"]) {
    format.append(el("option", { value: id }, id === "all" ? "all (every format)" : id));
  }
  date.value = today();
  const shared = await readFragment().catch(() => null);
  if (shared) {
    list.value = shared.list || "";
    if ([...format.options].some((o) => o.value === shared.format)) format.value = shared.format;
    if (shared.date) date.value = shared.date;
    if (shared.going) going.value = shared.going;
    if (shared.turns) turns.value = shared.turns;
    want.value = (shared.want || []).join("\n");
  }
  for (const input of [list, format, date, going, turns, want]) input.addEventListener("input", update);
  list.addEventListener("dragover", (e) => e.preventDefault());
  list.addEventListener("drop", async (e) => {
    const file = e.dataTransfer?.files?.[0];
    if (!file) return;
    e.preventDefault();
    // Decoded as `deckbox check` decodes a file, not as UTF-8 only (`file.text()`).
    setList(deckbox.decodeList(new Uint8Array(await file.arrayBuffer())));
  });
  $("search-form").addEventListener("submit", drawSearch);
  // Searching needs the card texts: fetch them as soon as the search box is used.
  $("query").addEventListener("focus", () => loadTexts().catch(() => {}), { once: true });
  $("share").addEventListener("click", async () => {
    const url = await shareLink();
    $("share-url").value = url;
    $("status").textContent = (await copy(url)) ? "share link copied" : "share link below: select and copy it";
  });
  $("ptcgl").addEventListener("click", async () => {
    const answer = call(deckbox.ptcgl, list.value, JSON.stringify(deckOptions()));
    const out = $("export");
    out.classList.add("used");
    document.querySelector("label[for=export]").classList.add("used");
    out.value = answer.error ? `error: ${answer.error}` : answer.value;
    $("status").textContent = answer.error ? "not converted" : (await copy(answer.value)) ? "PTCG Live text copied" : "PTCG Live text below";
  });
  $("download").addEventListener("click", () => {
    const link = el("a", { href: URL.createObjectURL(new Blob([list.value], { type: "text/plain" })), download: "deck.txt" });
    link.click();
    URL.revokeObjectURL(link.href);
  });
  draw();
  document.body.dataset.ready = "true";
  prefetchTexts();
}

main().catch((error) => {
  $("summary").textContent = `deckbox could not start: ${error}`;
});
