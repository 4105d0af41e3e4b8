// The workbench page: the scenario's cells, the answer as it streams, trace and save-as.
// Everything the server sends is put in the page as text, except the figures' SVG, which
// the project's own figure code draws on the server.
"use strict";

const W = JSON.parse(document.getElementById("words").textContent);
const LANG = document.body.dataset.lang;
const $ = (id) => document.getElementById(id);
// This page load's own id: the server stops an older answer of this page only, never
// another tab's.
const PAGE = (window.crypto && crypto.randomUUID) ? crypto.randomUUID()
  : Array.from({ length: 4 }, () => Math.random().toString(36).slice(2, 10)).join("");
let scenario = null;      // the cells of the scenario as written
let controller = null;    // the answer being read (aborted by a newer edit)
let timer = null;
let saved = "{}";         // the edits last saved as a file (no warning for those on leaving)
const typed = new Set();  // the cells the designer typed in (another profile never rewrites them)
let carried = false;      // leaving for the page in the other language, the edits with it
window.timings = {};      // when the last edit was made, and its number and chart came

function element(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

function valueOf(input) {
  return input.type === "checkbox" ? (input.checked ? "true" : "false") : input.value.trim();
}

// What a cell's text means, as the server reads it (cells.py's meaning(), which decides
// the --set lines): "15 min" is "15min" (a duration by its whole microseconds), "0.50" is
// "0.5"; a name, a choice or a check box is its text. The rulebook's value under a cell
// and the edits sent compare these, so the file's value written otherwise is no edit.
const DURATION_PART = /([0-9]+(?:\.[0-9]+)?)\s*(sem|w|d|j|h|min|s)/g;
const UNIT_MICROSECONDS = { w: 604800000000n, d: 86400000000n, h: 3600000000n,
  min: 60000000n, s: 1000000n };
const UNIT_ORDER = ["w", "d", "h", "min", "s"];
const UNIT_ALIASES = { j: "d", sem: "w" };

function durationMeaning(text) {  // as rules/durations.py's parse_duration, in microseconds
  const written = text.trim();
  if (!/^(?:([0-9]+(?:\.[0-9]+)?)\s*(sem|w|d|j|h|min|s)\s*)+$/.test(written)) return "t" + text;
  const parts = Array.from(written.matchAll(DURATION_PART),
    (m) => [m[1], UNIT_ALIASES[m[2]] || m[2]]);
  const ranks = parts.map(([, unit]) => UNIT_ORDER.indexOf(unit));
  if (ranks.some((rank, i) => i > 0 && ranks[i - 1] >= rank)) return "t" + text;
  const decimals = parts.map(([n]) => (n.split(".")[1] || "").length);
  const places = Math.max(...decimals);
  if (places > 1100 || parts.some(([n]) => n.split(".")[0].replace(/^0+/, "").length > 30)) {
    return "t" + text;
  }
  let sum = 0n;  // exactly, in 10**-places microseconds
  parts.forEach(([number, unit], i) => {
    const digits = BigInt(number.replace(".", "") + "0".repeat(places - decimals[i]));
    sum += digits * UNIT_MICROSECONDS[unit];
  });
  const scale = 10n ** BigInt(places);
  let whole = sum / scale;
  const twice = 2n * (sum % scale);
  if (twice > scale || (twice === scale && whole % 2n === 1n)) whole += 1n;  // half to even
  return "d" + whole;
}

const DIGITS = "[0-9](?:_?[0-9])*";
const TOML_INTEGER = new RegExp(`^[+-]?(?:0|[1-9](?:_?[0-9])*)$|^0x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*$` +
  "|^0o[0-7](?:_?[0-7])*$|^0b[01](?:_?[01])*$");
const TOML_FLOAT = new RegExp(`^[+-]?(?:0|[1-9](?:_?[0-9])*)` +
  `(?:\\.${DIGITS}(?:[eE][+-]?${DIGITS})?|[eE][+-]?${DIGITS})$|^[+-]?inf$`);

function meaning(input, text) {
  text = text.trim();
  if (input.dataset.literal === "true" || input.tagName === "SELECT" || input.type === "checkbox") {
    return text;
  }
  if (input.dataset.kind === "list") {  // items, each a duration (as overrides() sends them)
    return JSON.stringify(text.split(",").map((p) => p.trim()).filter(Boolean).map(durationMeaning));
  }
  if (TOML_INTEGER.test(text)) return "i" + BigInt(text.replace(/_/g, "").replace(/^\+/, ""));
  if (TOML_FLOAT.test(text)) return "f" + Number(text.replace(/_/g, "").replace(/inf$/, "Infinity"));
  const quoted = /^"([^"\\]*)"$|^'([^']*)'$/.exec(text);  // a TOML string without escapes
  if (quoted) return durationMeaning(quoted[1] ?? quoted[2]);
  return durationMeaning(text);
}

function same(input, a, b) {
  return meaning(input, a) === meaning(input, b);
}

// A cell drawn without a label of its own (in a table) is named by its row and column, in
// words, for a screen reader (its file key stays the hint).
function cellBox(cell, withLabel, name = null) {
  const box = element("div", { class: "cell", "data-key": cell.key });
  const id = "cell-" + cell.key.replace(/[^A-Za-z0-9_]/g, "-");
  let input;
  if (cell.kind === "choice") {
    input = element("select", { id });
    cell.choices.forEach((choice, i) => {  // the file's word, said in the page's language
      const option = element("option", { value: choice }, (cell.shown || [])[i] || choice);
      if (choice === cell.value) option.selected = true;
      input.append(option);
    });
  } else if (cell.kind === "bool") {
    input = element("input", { id, type: "checkbox" });
    input.checked = cell.value === "true";
  } else {
    input = element("input", { id, type: "text", size: cell.group === "table" ? 7 : 12 });
    input.value = cell.value;
  }
  input.dataset.key = cell.key;
  input.dataset.original = cell.value;
  input.dataset.kind = cell.kind;
  input.dataset.literal = cell.literal ? "true" : "false";
  if (cell.rulebook !== null) input.dataset.rulebook = cell.rulebook;
  input.title = cell.key;  // the file's key, as a hint (the label says it in words)
  if (withLabel) box.append(element("label", { for: id, title: cell.key }, cell.label));
  else if (name) input.setAttribute("aria-label", name);
  box.append(input);
  // the cell's own undo: back to the file's value (as the profile makes it), the other
  // edits kept; shown only beside an edited cell, named in words for a screen reader
  const said = `${W["undo this edit"]}${LANG === "fr" ? " : " : ": "}${name || cell.label}`;
  const back = element("button", { type: "button", class: "take-back", "aria-label": said,
    title: `${said} (${cell.key})` }, "↺");
  box.append(back);
  const book = element("span", { class: "book", id: "book-" + id });
  box.append(book, element("div", { class: "problem", id: "problem-" + id }));
  // its problem, then its rulebook value, are what a screen reader says of it
  input.setAttribute("aria-describedby", `problem-${id} book-${id}`);
  const mark = () => {  // against the table as the file's profile makes it (profile()'s)
    const value = valueOf(input);
    const edited = !same(input, value, input.dataset.original);
    box.classList.toggle("edited", edited);
    back.hidden = !edited;
    const rulebook = input.dataset.rulebook;
    const differs = rulebook !== undefined && !same(input, value, rulebook);
    book.textContent = differs ? `${W["rulebook"]}${LANG === "fr" ? " : " : ": "}${rulebook}` : "";
  };
  input.mark = mark;
  mark();
  input.addEventListener("input", () => { typed.add(cell.key); mark(); later(); });
  input.addEventListener("change", () => { typed.add(cell.key); mark(); later(); });
  back.addEventListener("click", () => {
    if (input.type === "checkbox") input.checked = input.dataset.original === "true";
    else input.value = input.dataset.original;
    input.focus();  // the button hides itself: the focus goes back to its cell
    input.dispatchEvent(new Event("change"));  // a profile, an injury's level: as if chosen
    typed.delete(cell.key);  // the file's value again: another profile may rewrite it
  });
  if (cell.key === "patient.profile") {
    input.addEventListener("change", () => { tabled = profile(input.value).catch(() => null); });
  }
  if (/^injuries\.\d+\.level$/.test(cell.key)) input.addEventListener("change", () => mentalRows(input.value));
  return box;
}

function render(data) {
  scenario = data;
  typed.clear();  // the file as written (restore() types its kept edits again)
  $("title").textContent = data.title || data.name;
  $("description").textContent = data.description || "";
  renderTable(data);
  renderGroups(data);
}

function renderTable(data) {
  const table = $("wound-table");
  table.replaceChildren();
  const byLevel = {};
  for (const cell of data.cells.filter((c) => c.group === "table")) {
    const level = cell.key.split(".")[2];
    (byLevel[level] = byLevel[level] || []).push(cell);
  }
  const head = element("tr");
  head.append(element("th"));
  const first = data.levels.length ? byLevel[data.levels[0].name] : [];
  for (const cell of first) head.append(element("th", { scope: "col" }, cell.label));
  table.append(head);
  for (const level of data.levels) {
    const row = element("tr");
    row.append(element("th", { scope: "row" }, level.label));
    for (const cell of byLevel[level.name]) {
      const td = element("td");
      td.append(cellBox(cell, false, `${level.label}, ${cell.label}`));
      row.append(td);
    }
    table.append(row);
  }
}

function renderGroups(data) {
  const groups = $("groups");
  groups.replaceChildren();
  for (const [group, name] of Object.entries(data.groups)) {
    const mine = data.cells.filter((c) => c.group === group);
    if (group === "table" || !mine.length) continue;
    const set = element("fieldset", { id: "group-" + group });
    set.append(element("legend", {}, name));
    if (["first_aid", "healing"].includes(group) && mine.every((c) => c.value === "" || c.value === "false")) {
      set.append(element("p", { class: "hint" }, W["none in the file: fill these to add one"]));
    }
    if (group === "injuries" || group === "activities") {
      const scroll = element("div", { class: "scroll" });
      scroll.append(rowsOf(mine, name));
      set.append(scroll);
    }
    else for (const cell of mine) set.append(cellBox(cell, true));
    groups.append(set);
  }
}

function rowsOf(cells, name) {
  // items of an array of tables (injuries.0.at, injuries.0.level...): one row each, its
  // cells named "injuries received #1, level" for a screen reader; the row shows its
  // number, counted from 1 as the problems count it ("injury row 2 (injuries[1].count)"); the
  // rows in the file's order (cells.py's file_rows), so row n is the file's injuries[n-1]
  const table = element("table", { class: "rows" });
  const rows = {};
  for (const cell of cells) {
    const index = cell.key.split(".")[1];
    if (!rows[index]) {
      rows[index] = element("tr");
      rows[index].append(element("th", { scope: "row", class: "number" }, String(Number(index) + 1)));
      if (!table.children.length) {
        const head = element("tr");
        head.append(element("th", { class: "number" }, W["#"]));
        for (const c of cells.filter((c) => c.key.split(".")[1] === index)) head.append(element("th", {}, c.label));
        table.append(head);
      }
      table.append(rows[index]);
    }
    const td = element("td");
    td.append(cellBox(cell, false, `${name} #${Number(index) + 1}, ${cell.label}`));
    rows[index].append(td);
  }
  return table;
}

// the table of the profile chosen last, on its way: a save waits for it (its edits are
// against that table: a cell typed as the old table's value is one only once it is drawn)
let tabled = Promise.resolve();
let tabling = 0;  // the latest table asked for: an older one's answer never shows after it

async function profile(name) {
  // another profile, another wound table: each cell not typed shows (and will run) the
  // new profile's value; a typed one stays, now an edit against that table
  const mine = ++tabling;
  const shown = scenario;  // the scenario drawn when it was asked for
  const asked = `/api/scenario?name=${encodeURIComponent(scenario.name)}&lang=${LANG}` +
    `&profile=${encodeURIComponent(name)}`;
  const response = await fetch(asked);
  const data = await response.json();
  // answers can come in any order: a table asked later (another profile, or this one again
  // for the file read again) shows, never this one over it; another scenario drawn meanwhile
  // (its file read again, another picked, every edit undone) holds other cells: this table
  // is of the file as it was, or of another file, never drawn into them
  if (mine !== tabling || scenario !== shown) return;
  const chosen = document.querySelector('[data-original][data-key="patient.profile"]');
  if (!data.cells || !chosen || chosen.value !== name) return;  // a later choice answers
  for (const cell of data.cells.filter((c) => c.group === "table")) {
    const input = document.querySelector(`[data-original][data-key="${CSS.escape(cell.key)}"]`);
    if (!input) continue;
    if (!typed.has(cell.key)) input.value = cell.value;  // a typed cell keeps its value
    input.dataset.original = cell.value;
    if (cell.rulebook !== null) input.dataset.rulebook = cell.rulebook;
    input.mark();
  }
  later();
}

const MENTAL = ["shock", "trauma", "psychosis"];

async function mentalRows(level) {
  // an injury turned mental: the mental rows of the table come, so that they can be edited;
  // the cells typed so far keep their values
  if (!MENTAL.includes(level) || scenario.levels.some((l) => MENTAL.includes(l.name))) return;
  const shown = scenario;  // the scenario drawn when they were asked for
  const response = await fetch(`/api/scenario?name=${encodeURIComponent(scenario.name)}` +
    `&lang=${LANG}&mental=1`);
  const data = await response.json();
  // another scenario drawn meanwhile (picked, its file read again, every edit undone): these
  // rows are the one left's, never drawn into its table (a re-read that keeps the injury
  // turned mental asks for them again, as its edits are typed in again)
  if (!data.cells || scenario !== shown) return;
  if (scenario.levels.some((l) => MENTAL.includes(l.name))) return;  // an earlier answer drew them
  const kept = {};
  for (const input of document.querySelectorAll("#wound-table [data-original]")) {
    kept[input.dataset.key] = { value: valueOf(input), original: input.dataset.original };
  }
  const held = heldFocus();  // a cell of the table being typed in: found again once redrawn
  scenario.levels = data.levels;
  renderTable(data);
  for (const input of document.querySelectorAll("#wound-table [data-original]")) {
    const was = kept[input.dataset.key];
    if (!was) continue;
    input.dataset.original = was.original;  // as the profile made it, if one was chosen
    if (input.type === "checkbox") input.checked = was.value === "true";
    else input.value = was.value;
    input.mark();
  }
  refocus(held);
}

function edits() {
  const found = {};
  for (const input of document.querySelectorAll("[data-key][data-original]")) {
    const value = valueOf(input);
    if (!same(input, value, input.dataset.original)) found[input.dataset.key] = value;
  }
  return found;
}

function typedValues() {
  // the cells the designer typed in, as they are now (edits or not)
  const found = {};
  for (const key of typed) {
    const input = document.querySelector(`[data-original][data-key="${CSS.escape(key)}"]`);
    if (input) found[key] = valueOf(input);
  }
  return found;
}

function later() {
  clearTimeout(timer);
  window.timings = { edit: performance.now() };
  // the answer shown is now of other cells: stop reading it, a new one comes
  if (controller) controller.abort();
  controller = null;
  $("answer").dataset.state = "computing";
  traceStale();
  savedSince();
  timer = setTimeout(compute, 200);
}

function asked(extra = {}) {
  // as typed: the server reads whole numbers exactly (a seed past 2**53) and quotes mistakes
  return JSON.stringify({ name: scenario.name, stamp: scenario.stamp, edits: edits(), lang: LANG,
    trials: $("trials").value, seed: $("seed").value, ...extra });
}

function showProblems(problems) {
  for (const box of document.querySelectorAll(".cell")) {
    box.classList.remove("bad");
    box.querySelector(".problem").textContent = "";
    const input = box.querySelector("[data-original]");
    if (input) input.removeAttribute("aria-invalid");
  }
  const general = [];
  for (const p of problems) {
    const box = p.key ? document.querySelector(`.cell[data-key="${CSS.escape(p.key)}"]`) : null;
    if (box) {
      box.classList.add("bad");
      const input = box.querySelector("[data-original]");
      if (input) input.setAttribute("aria-invalid", "true");
      const where = box.querySelector(".problem");
      where.textContent = (where.textContent ? where.textContent + "\n" : "") + p.message;
    } else general.push(p.message);
  }
  $("general-problems").textContent = [notice, ...general].filter(Boolean).join("\n");
  $("stale").hidden = problems.length === 0;
}

function showNumbers(event) {
  const a = event.answer;
  const n = event.numbers;
  $("method").textContent = `(${a.method_label})`;
  $("method").dataset.method = a.method;
  $("note").textContent = a.note;
  const done = n.trials === null ? 1 : n.trials / n.total;
  $("bar").style.width = `${Math.round(100 * done)}%`;
  const table = $("numbers");
  table.replaceChildren();
  const head = element("tr");
  const titles = ["", "", a.ci_label, W["as written"], W["change"]];
  for (const h of titles) head.append(element("th", {}, h));
  table.append(head);
  for (const row of a.rows) {
    const tr = element("tr", { id: "row-" + row.key, "data-p": String(row.p), class: row.cause ? "cause" : "" });
    tr.append(element("th", { scope: "row" }, row.label), element("td", { class: "value" }, row.value),
      element("td", { class: "ci" }, row.ci || ""), element("td", { class: "base" }, row.base || ""),
      element("td", { class: "delta" }, row.delta || ""));
    table.append(tr);
  }
  for (const m of a.medians) {
    const tr = element("tr", { class: "median" });
    tr.append(element("th", { scope: "row" }, m.label), element("td", { colspan: 4 }, m.value));
    table.append(tr);
  }
  $("command").textContent = event.command;
}

async function compute() {
  if (!scenario) return;
  if (controller) controller.abort();
  const mine = (controller = new AbortController());
  const box = $("answer");
  box.dataset.state = "computing";
  let response;
  let waiting = true;  // on the server (a TypeError then: it is gone), not on the page's code
  try {
    response = await fetch("/api/answer", { method: "POST", body: asked({ page: PAGE }),
      signal: mine.signal, headers: { "Content-Type": "application/json" } });
    if (!response.ok) {
      const field = response.headers.get("X-Harmonies-Field");
      if (RUN_FIELDS.includes(field)) {  // the trials or the seed: said beside its box
        runProblem(field, await refusedText(response));
        box.dataset.state = "failed";
        return;
      }
      throw new Error(await refusedText(response));
    }
    runProblem(null, "");
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      waiting = true;
      const { value, done } = await reader.read();
      waiting = false;
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const event = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (mine !== controller) return;
        handle(event, box);
      }
    }
  } catch (error) {
    if (error.name === "AbortError") return;
    // a refusal answers in words; a server gone (stopped, restarting) throws a TypeError
    const gone = waiting && error instanceof TypeError;
    $("general-problems").textContent = gone ? W[NO_ANSWER] : String(error.message || error);
    box.dataset.state = "failed";  // the numbers shown are greyed: not these cells' answer
  }
}

const RUN_FIELDS = ["trials", "seed"];  // the boxes of the header a refused answer may name

function runProblem(field, message) {
  // a refused trials or seed: its box marked, the words beside it (the header, where it was
  // typed, not above the cells); none once an answer is computed again
  for (const name of RUN_FIELDS) {
    const input = $(name);
    const bad = name === field;
    input.classList.toggle("bad", bad);
    if (bad) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", "run-problems");
    } else {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    }
  }
  $("run-problems").textContent = message;
}

// The server's own refusals come before it reads the request, so before it knows the page's
// language: their texts are English (for a client without a page); the page says its own.
const REFUSALS = {
  408: "The request took too long to reach the server: try again.",
  413: "The request is too large for the server: shorten the longest edits.",
  503: "The server is busy (too many requests at once): try again in a moment.",
};

async function refusedText(response) {
  return REFUSALS[response.status] ? W[REFUSALS[response.status]] : response.text();
}

const NO_ANSWER = "No answer from the server: is harmonies-sim serve still running? The numbers " +
  "shown are for the cells as they were before.";

let notice = "";  // said above the problems until another scenario is opened

function reread() {
  // the file changed on disk since the page read it: read it again, the edits kept (as
  // they are once it is read: a key typed meanwhile is one of them); not when another
  // scenario is being opened (the one left is read no more)
  if (pending !== null && pending !== scenario.name) return;
  notice = W["The file changed on disk: read again, your edits kept."];
  open(scenario.name, true);
}

function heldFocus() {
  // the cell (or free box) being typed in, and where its caret is: found again once redrawn
  const node = document.activeElement;
  if (!node || !node.id || !$("edit").contains(node)) return null;
  const text = typeof node.selectionStart === "number";
  return { id: node.id, start: text ? node.selectionStart : null,
    end: text ? node.selectionEnd : null };
}

function refocus(held) {
  // after the observers that redraw the free boxes (microtasks queued by the drawing)
  queueMicrotask(() => {
    const node = held && document.getElementById(held.id);
    if (!node || document.activeElement === node) return;
    node.focus();
    if (held.start !== null && typeof node.selectionStart === "number") {
      node.setSelectionRange(held.start, held.end);
    }
  });
}

function handle(event, box) {
  if (event.type === "changed") {
    reread();
  } else if (event.type === "problems") {
    showProblems(event.problems);
    box.dataset.state = "problems";
  } else if (event.type === "numbers" && event.again) {
    showNumbers(event);  // the same answer, now with its changes against the file
  } else if (event.type === "numbers") {
    showProblems([]);
    showNumbers(event);
    window.timings.first = window.timings.first || performance.now();
    if (event.final) {
      window.timings.number = performance.now();
      box.dataset.state = "numbers";
    } else box.dataset.state = "sampling";
  } else if (event.type === "figure") {
    // SVG drawn by the project's own figure code on the server
    $(event.which === "fate" ? "figure-fate" : "figure-first-day").innerHTML = event.svg;
    if (event.which === "fate") window.timings.chart = performance.now();
    // the first day's chart is this answer's or none (never an older answer's)
    if (event.which === "fate") $("figure-first-day").replaceChildren();
    if (event.last) box.dataset.state = "done";
  }
}

async function post(url, extra) {
  let response;
  try {
    response = await fetch(url, { method: "POST", body: asked(extra),
      headers: { "Content-Type": "application/json" } });
  } catch (error) {  // the server is gone: said, never a silent wait
    return { problems: [{ key: "", message: W[NO_ANSWER] }] };
  }
  const type = response.headers.get("Content-Type") || "";
  if (type.includes("application/json")) return response.json();
  // a refused request (a trial number that is none, say) answers in words, not JSON
  return { problems: [{ key: "", message: await refusedText(response) }] };
}

let shownTrace = null;  // what the campaign shown was told for: { cells, find, trial }
let telling = 0;        // the latest press: an older press's campaign never shows after it
// the campaign in the trace box as the page in the other language tells it again: what it
// was asked for ({ cells, stamp, trial, find }, the trial found once told) and its text
let traceCarry = null;

function traceCells() {  // what a campaign depends on: the scenario, its cells, the seed
  // the edits in the order of their keys: the page in the other language draws the same
  // cells in another order (the mental rows drawn at once), yet they are the same cells
  const cells = Object.entries(edits()).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([scenario ? scenario.name : null, cells, $("seed").value]);
}

function traceStale() {
  // a campaign told for other cells (or another seed) stays, said to be theirs
  $("trace-stale").hidden = !shownTrace || shownTrace.cells === traceCells();
}

async function tell(find) {
  const mine = ++telling;
  const cells = traceCells();
  let trial = $("trial").value.trim();
  // pressed again on the campaign it found: the next one that ends so, not the same again
  if (find && shownTrace && shownTrace.find === find && shownTrace.cells === cells &&
      shownTrace.trial === trial && /^\d+$/.test(trial)) trial = String(BigInt(trial) + 1n);
  shownTrace = null;
  traceStale();
  $("trace").textContent = W["computing…"];
  traceCarry = { cells, stamp: scenario.stamp, trial, find, text: "" };
  const on = scenario.name;  // the scenario told, whichever is shown once it answers
  const told = await post("/api/trace", { trial, find });
  if (mine !== telling) return;  // a newer press answers instead
  if (told.changed) {
    $("trace").textContent = "";
    traceCarry = null;
    if (scenario.name === on) reread();  // another one opened since: its file is not that one
    return;
  }
  if (told.problems) {
    // the problems of the cells as asked: said in the trace box; in the cells only if they
    // are still those (a cell fixed since is not put back in red, nor another scenario's)
    if (traceCells() === cells) showProblems(told.problems);
    traceProblems(told.problems);
    return;
  }
  $("trial").value = told.trial;
  $("trace").textContent = traceCarry.text = told.text;
  traceCarry.trial = String(told.trial);
  traceCarry.told = true;  // the trial found: told again as it is, not searched again
  shownTrace = { cells, find, trial: String(told.trial) };
  traceStale();  // the cells changed while it was told: said at once
}

function traceProblems(problems) {
  // said with the cell's place: the trace box stands away from the cell (an injury's by the
  // row as the page numbers it, then its key as the file counts it: "injury row 2
  // (injuries[1].count)"); an empty where: the message names its cell itself
  const colon = LANG === "fr" ? " : " : ": ";
  $("trace").textContent = problems.map((p) => (p.key && p.where !== "" ?
    (p.where || p.key) + colon : "") + p.message).join("\n");
  if (traceCarry) traceCarry.text = $("trace").textContent;
}

async function retell(carried) {
  // the campaign the page in the other language showed, told again in this one: for the
  // cells, seed and trial it was told for (said to be others' if the cells moved since);
  // the file changed since, or no answer: its text as it was, said to be others'
  const mine = ++telling;
  const [name, cells, seed] = JSON.parse(carried.cells);
  const find = carried.told ? null : carried.find;
  traceCarry = carried;
  $("trace").textContent = W["computing…"];
  const told = await post("/api/trace", { name, stamp: carried.stamp,
    edits: Object.fromEntries(cells), seed, trial: carried.trial, find });
  if (mine !== telling) return;  // pressed here meanwhile: that press answers
  if (told.problems && carried.told !== true) {
    traceProblems(told.problems);  // the same refusal, in this language
    return;
  }
  if (told.text === undefined) {
    $("trace").textContent = carried.text;
    // never these cells' (none shown: a press not answered there)
    shownTrace = carried.text ? { cells: "", find: carried.find, trial: carried.trial } : null;
  } else {
    if (!carried.told) $("trial").value = told.trial;  // asked there, found here: as tell()
    $("trace").textContent = carried.text = told.text;
    carried.trial = String(told.trial);
    carried.told = true;
    shownTrace = { cells: carried.cells, find: carried.find, trial: String(told.trial) };
  }
  traceStale();
}

let savedSaid = "";   // the line said when the file was saved, said again if the cells go back
let savedCarry = null; // that line as the page in the other language says it: the server's
                       // words in each language ({ said }), or one of the page's ({ word })

function savedLine(text = "", name = "", carry = null) {
  $("saved").textContent = savedSaid = text;
  $("saved").dataset.saved = name;
  savedCarry = text ? carry : null;
}

function savedSince() {
  // a file saved from this page holds the cells of that moment: said once they move on
  const name = $("saved").dataset.saved;
  if (!name) return;
  $("saved").textContent = JSON.stringify(edits()) === saved ? savedSaid
    : W[SAVED_SINCE].replace("{name}", name);
}

const SAVED_SINCE = "{name} holds the cells as they were when saved, not the edits since.";

const CHANGED_UNSAVED = "Nothing was written: the file changed on disk and was read again, " +
  "your edits kept; save again.";
const RED_UNSAVED = "Nothing was written: fix what is said in red first.";
const EDITED_UNSAVED = "Nothing was written: the cells changed while it was on its way; " +
  "save again.";

function unsaved() {
  // edits that leaving would lose: none when the cells are the file's, or those saved last
  if (!scenario) return false;
  const now = JSON.stringify(edits());
  return now !== "{}" && now !== saved;
}

let saving = false;  // a save on its way: a second press (a double click, Enter twice) waits

async function save() {
  // pressed again before the first press is answered: that press would find the file the
  // first one wrote and say "exists; nothing was written" over the line that it was saved
  if (saving) return;
  saving = true;
  $("save").setAttribute("aria-busy", "true");
  try {
    await saveNow();
  } finally {
    saving = false;
    $("save").removeAttribute("aria-busy");
  }
}

async function saveNow() {
  // a profile chosen, its table not drawn yet: the edits are sent once it is (another
  // chosen meanwhile: that one's), or a cell typed as the old table's value is left out
  for (let waited = null; waited !== tabled;) {
    waited = tabled;
    await waited;
  }
  const sent = edits();
  const on = scenario.name;  // the scenario saved, whichever is shown once it answers
  const answer = await post("/api/save", { as: $("save-name").value.trim() });
  if (answer.saved && !Array.from($("scenario").options).some((o) => o.value === answer.saved)) {
    $("scenario").append(element("option", { value: answer.saved }, answer.saved));
  }
  // another scenario opened while it was on its way: its cells are not those saved, nor its
  // file the one changed on disk: nothing of this save is said under it (the file written is
  // listed above)
  if (scenario.name !== on) return;
  if (answer.changed) {  // the file changed on disk: nothing saved; read it again first
    savedLine(W[CHANGED_UNSAVED], "", { word: CHANGED_UNSAVED });  // beside the button pressed
    reread();
    return;
  }
  // the problems of the cells as sent: a cell edited since (fixed, say) is not put in red,
  // nor is the designer told to fix what no longer is
  const same = JSON.stringify(edits()) === JSON.stringify(sent);
  if (answer.problems && same) {
    showProblems(answer.problems);
    // "fix what is said in red first": the first cell in red takes the focus (scrolled to,
    // however far up the cells it is), as a form refused takes a keyboard to its mistake
    const red = document.querySelector("#edit [data-original][aria-invalid=true]");
    if (red) red.focus();
  }
  if (answer.message || answer.error) {
    savedLine(answer.message || answer.error, answer.saved || "",
      answer.said ? { said: answer.said } : null);
  } else {
    const why = same ? RED_UNSAVED : EDITED_UNSAVED;
    savedLine(answer.problems ? W[why] : "", "", { word: why });
  }
  if (answer.saved) saved = JSON.stringify(sent);
  savedSince();  // a cell edited while it was on its way: the file does not hold it, said so
}

const mentalRow = (key) => key.startsWith("rules.table.") && MENTAL.includes(key.split(".")[2]);

function mentalWanted(name, keep) {
  // the mental rows drawn now (the file read again) or edited on the page in the other
  // language: asked with the file, or their edits would find no cell to go back in
  if (keep && scenario && scenario.name === name) {
    return scenario.levels.some((l) => MENTAL.includes(l.name));
  }
  // Undo all: Solve's free boxes typed on a mental row keep their row (no edit asks for it)
  if (scenario && scenario.name === name && freeTyped().some(mentalRow)) return true;
  const kept = JSON.parse(sessionStorage.getItem("kept") || "null");
  // Solve's free boxes of a mental row (calibrate.js carries them) want their cells too
  const free = (JSON.parse(sessionStorage.getItem("calibrate-kept") || "null") || {}).free;
  return Boolean(kept && kept.name === name && Object.entries(kept.edits).some(([key, value]) =>
    mentalRow(key) || (/^injuries\.\d+\.level$/.test(key) && MENTAL.includes(value)))) ||
    Boolean(free && free.of === name && Object.entries(free).some(([key, box]) =>
      mentalRow(key) && box && (box.on || box.low || box.high)));
}

let opening = 0;     // the latest file asked for: an older one's answer never shows after it
let pending = null;  // the scenario being opened (picked, its file not read yet), or null

async function open(name, keep = false) {
  const mine = ++opening;
  pending = name;  // the list names it while it is read (follow() keeps it)
  const mental = mentalWanted(name, keep) ? "&mental=1" : "";
  let data;
  try {
    const response = await fetch(`/api/scenario?name=${encodeURIComponent(name)}&lang=${LANG}` +
      mental);
    data = await response.json();
  } catch (error) {
    data = { error: W[NO_ANSWER] };  // the server gone: said, never a silent wait
  }
  // picked again meanwhile (another scenario, Undo all edits): that one shows, never this
  // one over it, under a list that names the other
  if (mine !== opening) return;
  pending = null;
  const again = keep && scenario && scenario.name === name;  // the same file, read again
  const held = again ? heldFocus() : null;
  if (data.error || data.problems) {
    const kept = JSON.parse(sessionStorage.getItem("kept") || "null");
    if (!again && kept && kept.name === name) {  // from the language link: no cell to hold them
      sessionStorage.removeItem("kept");
      unkept(NOT_CARRIED, name, kept.edits);
      if (kept.trace) retell(kept.trace);  // refused: its text as it was, said to be others'
    }
    // Solve's free boxes the language link carried for it: said, as its edits are
    if (!again && window.solveNotOpened) window.solveNotOpened(name);
    // a refusal names the file itself; a broken file's problems are said under its name
    $("general-problems").textContent = [data.error ||
      `${name}${LANG === "fr" ? " : " : ": "}${data.problems.map((p) => p.message).join("\n")}`,
    notice].filter(Boolean).join("\n");
    if (scenario) $("scenario").value = scenario.name;  // the page still shows that one
    if (!scenario || scenario.name !== name) follow();  // a file gone since: no longer offered
    if (scenario && scenario.name === name) {  // its own file broke on disk: no answer now
      $("answer").dataset.state = "problems";
      $("stale").hidden = false;
    }
    return;
  }
  if (again) {  // the edits as they are now, typed again into the cells drawn anew
    // with the cells typed as the file's value then (no edit): typed again as well, never
    // given the file's new value unsaid, and still typed (another profile rewrites none)
    sessionStorage.setItem("kept", JSON.stringify({ name, edits: { ...typedValues(), ...edits() },
      typed: [...typed], trials: $("trials").value, seed: $("seed").value }));
  }
  const same = scenario && scenario.name === name;  // read again, or every edit undone
  if (!same) savedLine();  // what was saved from another scenario is not said under this one
  if (!same || again) saved = "{}";  // Undo all: the file saved still holds those cells
  render(data);
  listedAs(name);
  restore(name);
  savedSince();  // the saved line kept, said of the cells as they are now
  traceStale();
  refocus(held);
  // the address names the scenario shown: a reload opens this one, not the first one's
  history.replaceState(null, "", `/?lang=${LANG}&name=${encodeURIComponent(name)}`);
  compute();
}

function listedAs(name) {
  // the list names the scenario shown (the one picked, or the language link's, or Undo
  // all's): a later action acts on the file the page shows
  const select = $("scenario");
  if (!Array.from(select.options).some((o) => o.value === name)) {
    select.append(element("option", { value: name }, name));
  }
  select.value = name;
}

const NOT_CARRIED = "Your edits of {name} were not carried over: it could not be opened. " +
  "They were:";
const NOT_KEPT = "These edits were not kept: the file as it is now has no such cells:";

const ROW_PLACES = { injuries: "injury row {n} ({key})", activities: "activity row {n} ({key})" };

function placeSaid(key) {
  // a cell named away from it, as the server's place_said() names it in a problem: an entry
  // of a row by the row the page numbers, then its key as the file counts it ("injury row 2
  // (injuries[1].count)"); any other cell by its key
  const row = /^(injuries|activities)\.(\d+)((?:\..*)?)$/.exec(key);
  if (!row) return key;
  const index = Number(row[2]);
  return W[ROW_PLACES[row[1]]].replace("{n}", String(index + 1))
    .replace("{key}", `${row[1]}[${index}]${row[3]}`);
}

function unkept(template, name, lost) {
  // edits that find no cell on this page: said above the cells, each by its cell as the
  // page names it away from it, and the value typed (to type again), never dropped unsaid
  const colon = LANG === "fr" ? " : " : ": ";
  const lines = Object.entries(lost || {}).map(([key, value]) => `  ${placeSaid(key)}${colon}${value}`);
  if (!lines.length) return;
  notice = [notice, W[template].replace("{name}", name), ...lines].filter(Boolean).join("\n");
}

function restore(name) {
  const kept = JSON.parse(sessionStorage.getItem("kept") || "null");
  sessionStorage.removeItem("kept");
  if (!kept) return;
  $("trials").value = kept.trials;  // the header's, whichever scenario opens
  $("seed").value = kept.seed;
  if (kept.name !== name) {  // the language link landed on another (its own one gone)
    unkept(NOT_CARRIED, kept.name, kept.edits);
    if (kept.trace) retell(kept.trace);  // refused: its text as it was, said to be others'
    clearTimeout(timer);
    return;
  }
  // from the page in the other language: the cells of its last save, and the line beside
  // Save as (that save's, or why the last press wrote nothing), said in this one
  if (kept.saved !== undefined) saved = kept.saved;
  if (kept.line) {
    savedLine(kept.line.said ? kept.line.said[LANG] || "" : W[kept.line.word] || "",
      kept.line.name || "", kept.line.said ? { said: kept.line.said } : { word: kept.line.word });
  }
  if (kept.saveName !== undefined) $("save-name").value = kept.saveName;
  if (kept.trial !== undefined) $("trial").value = kept.trial;
  const lost = {};
  for (const [key, value] of Object.entries(kept.edits)) {
    const input = document.querySelector(`[data-original][data-key="${CSS.escape(key)}"]`);
    if (!input) {  // the file as it is now has no such cell (an injury removed, say)
      lost[key] = value;
      continue;
    }
    if (input.type === "checkbox") input.checked = value === "true";
    else input.value = value;
    input.dispatchEvent(new Event("change"));
  }
  unkept(NOT_KEPT, name, lost);
  // a cell typed as its table's value (no edit; a profile's table perhaps still on its way
  // there) is typed here too: another profile's table does not rewrite it
  for (const key of kept.typed || []) {
    if (document.querySelector(`[data-original][data-key="${CSS.escape(key)}"]`)) typed.add(key);
  }
  if (kept.trace) retell(kept.trace);  // after the cells: said to be theirs, or others'
  clearTimeout(timer);
}

let listing = 0;  // the latest look at the folder: an older answer never redraws the list

async function follow() {
  // the folder as it is now: a file added since is offered, one removed is not (the one
  // shown stays listed while the page shows it: its edits are still here; the one picked
  // stays listed and chosen while it is read, its reading says if it is gone)
  const mine = ++listing;
  let data;
  try {
    const response = await fetch(`/api/names?lang=${LANG}`);
    if (!response.ok) return;
    data = await response.json();
  } catch (error) {
    return;  // the server gone: said by the next answer asked
  }
  if (mine !== listing || !Array.isArray(data.names)) return;
  const names = data.names.slice();
  const shown = scenario ? scenario.name : null;
  for (const kept of [shown, pending]) if (kept && !names.includes(kept)) names.push(kept);
  const select = $("scenario");
  const now = Array.from(select.options, (o) => o.value);
  if (JSON.stringify(now) !== JSON.stringify(names)) {
    // the select keeps naming what it named: the one picked (being opened) or the one shown
    const chosen = names.includes(select.value) ? select.value : pending || shown;
    select.replaceChildren(...names.map((n) => element("option", { value: n }, n)));
    if (chosen) select.value = chosen;
  }
  $("folder-problems").textContent = data.refused.join("\n");
}

// the designer comes back from the files (another window, another tab) or reaches for the
// list: it is read again
window.addEventListener("focus", follow);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") follow();
});
$("scenario").addEventListener("focus", follow);
$("scenario").addEventListener("pointerenter", follow);
$("scenario").addEventListener("change", () => {
  // another scenario drops this one's edits, and Solve's free boxes (this one's cells; its
  // targets name their scenario and stay): asked first, as reloading the page asks
  const lost = unsaved();
  const free = scenario !== null && freeTyped().length > 0;
  const question = lost && free ? OPEN_BOTH : lost ? OPEN_EDITED : free ? OPEN_FREE : null;
  if (question && !confirm(W[question])) {
    $("scenario").value = scenario.name;
    return;
  }
  notice = "";
  open($("scenario").value);
});
$("trials").addEventListener("change", later);
$("seed").addEventListener("change", later);
$("undo").addEventListener("click", () => {
  // every edit goes: asked first when some are not saved as a file, as leaving asks
  if (unsaved() && !confirm(W[UNDO_ALL])) return;
  notice = "";
  open(scenario.name);
});
const UNDO_ALL = "Undo every edit? They are not saved as a file.";
const OPEN_EDITED = "Open another scenario? The edits of this one are not saved as a file.";
const OPEN_FREE = "Open another scenario? The free cells of Solve typed in this one will be " +
  "lost.";
const OPEN_BOTH = "Open another scenario? The edits of this one are not saved as a file, and " +
  "the free cells of Solve typed in it will be lost.";

function freeTyped() {
  // the keys of Solve's free boxes the designer typed in (calibrate.js draws them)
  return window.solveFreeTyped ? window.solveFreeTyped() : [];
}
$("tell").addEventListener("click", () => tell(null));
$("find-dead").addEventListener("click", () => tell("dead"));
$("find-healed").addEventListener("click", () => tell("healed"));
$("save").addEventListener("click", save);
$("save-name").addEventListener("keydown", (event) => {  // Enter in the name box saves too
  if (event.key === "Enter" && !event.isComposing) save();
});
for (const code of ["en", "fr"]) {
  $("lang-" + code).addEventListener("click", (e) => {
    e.preventDefault();
    const name = scenario ? scenario.name : document.body.dataset.first;
    // what the designer typed goes along to the page in the other language: the edits, the
    // cells typed with their values (another profile there rewrites none; one typed as the
    // table's value here, no edit, is typed so there too: the file's profile draws another
    // value in it until the profile chosen answers), trials, seed, trial and the name to
    // save as; the line beside Save as (the last save's file, its cells, or why the last
    // press wrote nothing) and the campaign in the trace box, said in the other one
    sessionStorage.setItem("kept", JSON.stringify({ name,
      edits: scenario ? { ...typedValues(), ...edits() } : {},
      typed: [...typed], trials: $("trials").value, seed: $("seed").value,
      trial: $("trial").value,
      saveName: $("save-name").value, saved, trace: traceCarry,
      line: savedCarry ? { ...savedCarry, name: $("saved").dataset.saved } : null }));
    carried = true;
    location.href = `/?lang=${code}&name=${encodeURIComponent(name)}`;
  });
}
// reloading or closing the page with edits not saved as a file asks first (the language
// link keeps them, and does not ask)
window.addEventListener("beforeunload", (event) => {
  if (carried || !unsaved()) return;
  event.preventDefault();
  event.returnValue = "";
});
const wanted = new URLSearchParams(location.search).get("name") || document.body.dataset.first;
const listed = Array.from($("scenario").options, (o) => o.value);
if (wanted && !listed.includes(wanted) && document.body.dataset.first) {
  // the address names a file gone since (reloaded after it was removed): the first one
  // opens, and the page says why
  openGone(wanted);
} else if (wanted) {
  $("scenario").value = wanted;
  open(wanted);
}

async function openGone(name) {
  const mine = ++opening;  // an opening as open()'s: a scenario picked meanwhile comes after it
  const data = await fetch(`/api/scenario?name=${encodeURIComponent(name)}&lang=${LANG}`)
    .then((response) => response.json()).catch(() => ({}));  // the server gone: open() says so
  // picked while the file gone was asked about: that one shows, never the first over it
  if (mine !== opening) return;
  notice = data.error || "";
  const first = document.body.dataset.first;
  $("scenario").value = first;
  open(first);
}
