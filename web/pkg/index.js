// deckbox for web pages and Node: the library's answers as objects, each the JSON document
// the deckbox CLI prints with `--output json` for the same list and options.
import init, * as wasm from "./deckbox_web.js";

/**
 * Loads the WebAssembly module: from `deckbox_web_bg.wasm` beside this file by default, or
 * from what `source` gives (a URL, a Response, bytes or a compiled WebAssembly.Module).
 */
export async function load(source) {
  await init(source === undefined ? undefined : { module_or_path: source });
}

/**
 * Loads the card texts, which `search` and `card` need (`check` and `stats` do not): from
 * `deckbox_texts.bin` beside this file by default, or from what `source` gives (a URL, a
 * Response or bytes). Call it after `load`; once is enough.
 */
export async function loadTexts(source) {
  if (wasm.hasTexts()) return;
  let bytes = source ?? new URL("deckbox_texts.bin", import.meta.url);
  if (typeof bytes === "string" || bytes instanceof URL) bytes = await fetch(bytes);
  if (bytes instanceof Response) {
    if (!bytes.ok) throw new Error(`the card texts: ${bytes.status} ${bytes.statusText}`);
    bytes = await bytes.arrayBuffer();
  }
  wasm.loadTexts(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer ?? bytes));
}

const call = (fn, first, options) => JSON.parse(fn(first, JSON.stringify(options ?? {})));

/** `deckbox check - --output json` for `text`. */
export const check = (text, options) => call(wasm.check, text, options);

/** `deckbox stats - --output json` (exact odds) for `text`. */
export const stats = (text, options) => call(wasm.stats, text, options);

/** The charts of `deckbox stats - -o report.html` (mulligans, cards seen by turn) as HTML. */
export const statsCharts = (text, options) => wasm.statsCharts(text, JSON.stringify(options ?? {}));

/** `deckbox search QUERY --output json` (after `loadTexts`). */
export const search = (query, options) => call(wasm.search, query, options);

/** `deckbox card QUERY --output json` (after `loadTexts`). */
export const card = (query, options) => call(wasm.card, query, options);

/** The list as PTCG Live imports it (`deckbox convert --to ptcgl`). */
export const ptcgl = (text, options) => wasm.ptcgl(text, JSON.stringify(options ?? {}));

/** `deckbox explain RULE`. */
export const explain = (rule) => wasm.explain(rule);

/** The format ids `format` takes (besides "all" for check). */
export const formats = () => JSON.parse(wasm.formats());

export const DeckBuilder = wasm.DeckBuilder;
