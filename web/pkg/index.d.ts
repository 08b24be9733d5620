// Types of deckbox-web: each answer is the JSON document the deckbox CLI prints with
// `--output json` (docs/web.md; the keys are described in the deckbox README and docs/).

/** Loads the WebAssembly module (default: deckbox_web_bg.wasm beside the package's files). */
export function load(
  source?: string | URL | Request | Response | BufferSource | WebAssembly.Module,
): Promise<void>;

/**
 * Loads the card texts that `search` and `card` need (default: deckbox_texts.bin beside the
 * package's files); after `load`, once.
 */
export function loadTexts(source?: string | URL | Response | BufferSource): Promise<void>;

/** A date as `YYYY-MM-DD`. */
export type Day = string;

export interface DeckOptions {
  /** A built-in format id (`formats()`), or "all" for check; default "standard". */
  format?: string;
  /** The date the deck is judged at (`--as-of`). */
  date?: Day;
}

export interface StatsOptions extends DeckOptions {
  going?: "first" | "second";
  /** Own turns to count draws for, 1 to 30 (default 4). */
  turns?: number;
  /** `--want` queries: `Dreepy>=1 & Rare Candy>=1 by T2`. */
  want?: string[];
  /** `--count-as` rules: `Nest Ball=Basic Pokémon`. */
  countAs?: string[];
  /** Also every card's exact count distributions. */
  exactly?: boolean;
}

export type Language = "en" | "fr" | "es" | "pt" | "de" | "it";

export interface SearchOptions {
  lang?: Language;
  /** One entry a printing (`--unique printings`). */
  printings?: boolean;
  sort?: "name" | "released" | "hp" | "set";
}

export interface CardOptions {
  lang?: Language;
  /** Legality at this date. */
  date?: Day;
}

export interface Span {
  offset: number;
  length: number;
}

export interface Finding {
  rule: string;
  severity: "error" | "warning";
  message: string;
  help: string | null;
  line: number | null;
  column: number | null;
  span: Span | null;
  label: string | null;
  related: { line: number; span: Span; message: string }[];
  cards: string[];
}

export interface CheckedCard {
  name: string;
  written: string;
  count: number;
  set: string | null;
  number: string | null;
  category: string | null;
  line: number;
  language: string | null;
}

export interface CheckedDeck {
  path: string;
  format: string;
  as_of: Day;
  language: string | null;
  valid: boolean;
  card_count: number;
  errors: number;
  warnings: number;
  cards: CheckedCard[];
  diagnostics: Finding[];
}

export interface CheckReport {
  version: 1;
  decks: CheckedDeck[];
}

/** `check` with `format: "all"`: the deck judged in every listed format. */
export interface JudgedEverywhere {
  path: string;
  as_of: Day;
  formats: {
    format: string;
    name: string;
    valid: boolean;
    errors: number;
    warnings: number;
    broken: string[];
  }[];
}

export interface CardOdds {
  name: string;
  copies: number;
  basic: boolean;
  opening_hand: number;
  prized_at_least_one: number;
  prized_all: number;
  prized_expected: number;
  /** P(at least one seen) by the start of own turn 1, 2, … */
  by_turn: number[];
  [key: string]: unknown;
}

export interface StatsReport {
  deck: { cards: number; basic_pokemon: number };
  setup: {
    hand_size: number;
    prizes: number;
    first_player_draws: boolean;
    first_turn_supporter: boolean;
    going: "first" | "second";
    turns: number;
  };
  mulligan: {
    probability: number;
    expected_mulligans: number;
    distribution: number[];
    distribution_rest: number;
  };
  cards: CardOdds[];
  /** One per `want` query. */
  events: { query: string; probability: number; probability_single_shuffle: number; fraction: string }[];
  [key: string]: unknown;
}

export interface Printing {
  set: string;
  number: string;
  set_id: string;
  released: Day;
  series: string;
  regulation_mark: string | null;
  types: string[];
  rules: string[];
  names: Partial<Record<Language, string>>;
  details: unknown | null;
  matched: boolean;
  [key: string]: unknown;
}

export interface SearchReport {
  query: string;
  cards: { name: string; printings: (Printing & { name: string })[] }[];
}

export interface CardReport {
  version: 1;
  query: string;
  matched_by: string;
  language: Language;
  cards: {
    name: string;
    category: string;
    printings: Printing[];
    [key: string]: unknown;
  }[];
}

/** Throws an Error with the CLI's message when the list cannot be read. */
export function check(text: string, options?: DeckOptions): CheckReport | JudgedEverywhere[];
export function stats(text: string, options?: StatsOptions): StatsReport;
/** The charts of `deckbox stats -o report.html` (mulligans, cards seen by turn): HTML with SVG. */
export function statsCharts(text: string, options?: StatsOptions): string;
export function search(query: string, options?: SearchOptions): SearchReport;
/** Throws when no card matches (the message names the nearest). */
export function card(query: string, options?: CardOptions): CardReport;
export function ptcgl(text: string, options?: DeckOptions): string;
export function explain(rule: string): string;
export function formats(): string[];

/** The deck builder's model: add a search result, remove a line, change its printing. */
export class DeckBuilder {
  constructor(text: string, options: string);
  /** JSON: `[{ name, set, number }]`, newest printings first; throws before `loadTexts`. */
  search(query: string): string;
  add(row: number): void;
  remove(row: number): void;
  cyclePrinting(row: number): void;
  undo(): void;
  text(): string;
  /** JSON: `[{ count, name, set, number }]`. */
  rows(): string;
  message(): string;
  free(): void;
}
