// The workbench's calibration: free cells (a box beside each cell, with a low and a high),
// targets on the folder's scenarios, Solve (the search streamed round by round), and Accept
// (the solution's values become edits of the cells, ready for save-as).
// It reads page.js's scenario, edits(), refusedText(), PAGE and carried; it adds its own
// controls to the cells that page.js draws, and nothing with data-key/data-original (those
// are the page's edits). page.js asks it window.solveFreeTyped() (before another scenario
// drops the free boxes) and tells it window.solveNotOpened(name) (a file it could not open).
"use strict";

(() => {
  const CW = JSON.parse(document.getElementById("calibrate-words").textContent);
  const CLANG = document.body.dataset.lang;
  const COLON = CLANG === "fr" ? " : " : ": ";  // as the language writes it
  const byId = (id) => document.getElementById(id);
  let solving = null;   // the Solve being read (aborted by a newer one)
  let solution = null;  // the last result, what Accept puts in the cells

  function el(tag, attrs = {}, text = null) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== null) node.textContent = text;
    return node;
  }

  const safe = (key) => key.replace(/[^A-Za-z0-9_]/g, "-");

  // a "free" box beside each cell typed as text (numbers, durations, shares)
  function freeControl(box) {
    if (box.querySelector(".free")) return;
    const input = box.querySelector("input[type=text][data-original]");
    const key = box.dataset.key;
    if (!input || !key || key.startsWith("name") || key.startsWith("description")) return;
    const id = safe(key);
    // the cell's name in words (its label, or its row and column in a table) for a screen
    // reader; the key stays the hint
    const own = box.querySelector("label:not(.free-label)");
    const name = input.getAttribute("aria-label") || (own ? own.textContent : key);
    const wrap = el("span", { class: "free", "data-free": key });
    const check = el("input", { type: "checkbox", id: "free-" + id, class: "free-check", title: `${CW["free"]}${COLON}${key}`,
      "aria-label": `${CW["free"]}${COLON}${name}` });
    const label = el("label", { for: "free-" + id, class: "free-label" }, CW["free"]);
    const low = el("input", { type: "text", id: "free-low-" + id, class: "free-low", size: 5,
      placeholder: CW["low"], title: `${CW["low"]}${COLON}${key}`, "aria-label": `${CW["low"]}${COLON}${name}` });
    const high = el("input", { type: "text", id: "free-high-" + id, class: "free-high", size: 5,
      placeholder: CW["high"], title: `${CW["high"]}${COLON}${key}`, "aria-label": `${CW["high"]}${COLON}${name}` });
    low.hidden = high.hidden = true;
    const problem = el("div", { class: "problem free-problem" });
    const show = () => {
      low.hidden = high.hidden = !check.checked;
      wrap.classList.toggle("on", check.checked);
    };
    const keep = () => { kept[key] = { on: check.checked, low: low.value, high: high.value }; };
    const was = scenario && kept.of === scenario.name ? kept[key] : undefined;
    if (was) {  // the same scenario drawn again (Undo, a re-read): its free cells as they were
      check.checked = was.on;
      low.value = was.low;
      high.value = was.high;
      show();
    }
    check.addEventListener("change", () => { show(); keep(); });
    low.addEventListener("input", keep);
    high.addEventListener("input", keep);
    wrap.append(check, label, low, high, problem);
    box.append(wrap);  // after the page's own problem line (page.js finds that one first)
  }

  let kept = {};  // the free boxes of the scenario shown, kept across its redrawing
  let brought = null;  // the free boxes the language link brought, till the cells are drawn
  let unkeptSaid = "";  // those that found no cell, said until another scenario opens
  let saidKeys = new Set();  // the boxes of the scenario shown said so (once each)
  let solveSaid = "";  // Solve's own problems that no field holds
  function freeAll() {
    if (scenario && kept.of !== scenario.name) {
      kept = { of: scenario.name };
      saidKeys = new Set();
      unsolved();  // the last scenario's Solve goes with its free boxes
      if (unkeptSaid) {  // another scenario opened: what was said of the last one goes
        unkeptSaid = "";
        sayProblems();
      }
    }
    for (const box of document.querySelectorAll("#edit .cell[data-key]")) freeControl(box);
    if (!scenario) return;
    // the language link landed on another scenario (its own could not be opened)
    if (brought && brought.of !== scenario.name) {
      unkept(brought, CW[FREE_NOT_CARRIED].replace("{name}", brought.of));
    }
    brought = null;
    // a box whose cell the page no longer draws: the file lost that row since (read again,
    // or before the language link)
    unkept(kept, CW[FREE_NOT_KEPT]);
  }

  function unsolved() {
    // another scenario shown: the Solve asked for the last one is stopped, and what it said
    // (its free cells, the values found for them, its problems) goes, never read as this
    // one's (the same key names a cell of each)
    if (solving) solving.abort();
    solving = null;
    solution = null;
    byId("cal-accept").disabled = true;
    for (const id of ["cal-result", "cal-log", "cal-accepted"]) byId(id).replaceChildren();
    solveSaid = "";
    sayProblems();
    byId("calibrate").dataset.state = "idle";
  }

  function unkept(from, head) {
    // free boxes that found no cell: said in Solve's problems, each by its cell as the page
    // names it and its range as typed, never dropped unsaid
    const lines = [];
    for (const [key, box] of Object.entries(from)) {
      if (key === "of" || !box || (!box.on && !box.low && !box.high)) continue;
      if (from === kept) {
        if (saidKeys.has(key) || document.querySelector(`.free[data-free="${CSS.escape(key)}"]`)) {
          continue;
        }
        saidKeys.add(key);
      }
      lines.push(`  ${placeSaid(key)}${COLON}${box.low} – ${box.high}`);
    }
    if (!lines.length) return;
    unkeptSaid = [unkeptSaid, head, ...lines].filter(Boolean).join("\n");
    sayProblems();
  }

  function sayProblems() {
    byId("cal-problems").textContent = [unkeptSaid, solveSaid].filter(Boolean).join("\n");
  }
  const FREE_NOT_KEPT = "These free cells of Solve were not kept: the file as it is now has " +
    "no such cells:";
  const FREE_NOT_CARRIED = "The free cells of {name} were not carried over: it could not be " +
    "opened. They were:";

  function scenarioNames() {
    return Array.from(byId("scenario").options).map((o) => o.value);
  }

  function field(row, name, node) {
    const cell = el("label", { class: "target-field", "data-field": name });
    const words = { scenario: "Scenario", stat: "statistic", value: "value", tolerance: "tolerance", set: "--set lines" };
    cell.append(el("span", {}, CW[words[name]]));
    cell.append(node, el("div", { class: "problem target-problem" }));
    row.append(cell);
    return node;
  }

  function addTarget(given = {}) {
    const row = el("div", { class: "target" });
    const pick = el("select", { class: "target-scenario" });
    const current = (typeof scenario !== "undefined" && scenario) ? scenario.name : byId("scenario").value;
    const names = scenarioNames();
    // a target carried by the language link on a file the folder no longer lists: it keeps
    // naming that file (Solve says it is gone), never put on another one without a word
    if (given.scenario && !names.includes(given.scenario)) names.push(given.scenario);
    row.dataset.scenario = given.scenario || current;  // as put, not picked by the designer
    for (const name of names) {
      const option = el("option", { value: name }, name);
      if (name === (given.scenario || current)) option.selected = true;
      pick.append(option);
    }
    field(row, "scenario", pick);
    field(row, "stat", el("input", { type: "text", class: "target-stat", list: "cal-stats", size: 14 })).value = given.stat || "p_dead";
    field(row, "value", el("input", { type: "text", class: "target-value", size: 7, placeholder: "0.2" })).value = given.value || "";
    field(row, "tolerance", el("input", { type: "text", class: "target-tolerance", size: 7, placeholder: "0.005" })).value = given.tolerance || "";
    field(row, "set", el("textarea", { class: "target-set", rows: 2, cols: 28, placeholder: "first_aid.level=3" })).value = given.set || "";
    const remove = el("button", { type: "button", class: "target-remove" }, CW["Remove"]);
    remove.addEventListener("click", () => row.remove());
    row.append(remove);
    byId("cal-targets").append(row);
    return row;
  }

  function targetsTyped() {  // each target's fields as typed
    return Array.from(document.querySelectorAll("#cal-targets .target")).map((row) => ({
      scenario: row.querySelector(".target-scenario").value,
      stat: row.querySelector(".target-stat").value,
      value: row.querySelector(".target-value").value,
      tolerance: row.querySelector(".target-tolerance").value,
      set: row.querySelector(".target-set").value,
    }));
  }

  const blank = (node) => !node.value.trim();

  // the keys of the free boxes the designer typed in: ticked, or a range typed (the
  // scenario's own cells: page.js asks before another scenario drops them)
  function freeTyped() {
    return Array.from(document.querySelectorAll(".free")).filter((wrap) =>
      wrap.querySelector(".free-check").checked || !blank(wrap.querySelector(".free-low")) ||
      !blank(wrap.querySelector(".free-high"))).map((wrap) => wrap.dataset.free);
  }
  window.solveFreeTyped = freeTyped;

  // what the designer typed into Solve: a free box ticked or its range typed, a target's
  // fields (a new target's own "p_dead" and scenario are not typed), Solve's trials
  function typedInSolve() {
    const free = freeTyped().length > 0;
    const targets = Array.from(document.querySelectorAll("#cal-targets .target")).some((row) =>
      row.querySelector(".target-stat").value.trim() !== "p_dead" ||
      row.querySelector(".target-scenario").value !== row.dataset.scenario ||
      [".target-value", ".target-tolerance", ".target-set"].some((f) => !blank(row.querySelector(f))));
    const trials = byId("cal-trials");
    return free || targets || trials.value !== trials.defaultValue;
  }

  function asked() {
    const free = [];
    for (const wrap of document.querySelectorAll(".free.on")) {
      free.push({ key: wrap.dataset.free, low: wrap.querySelector(".free-low").value,
        high: wrap.querySelector(".free-high").value });
    }
    const targets = targetsTyped();
    const trials = byId("cal-trials").value || undefined;  // as typed (the server checks)
    // a freed cell is the search's to move: its own edit is not a fixed setting of the search
    const kept = Object.fromEntries(Object.entries(edits())
      .filter(([key]) => !free.some((f) => f.key === key)));
    return JSON.stringify({ name: scenario.name, stamp: scenario.stamp, edits: kept, lang: CLANG,
      page: typeof PAGE !== "undefined" ? PAGE : undefined, seed: byId("seed").value,
      trials, free, targets });
  }

  function place(problems) {
    for (const node of document.querySelectorAll(".free-problem, .target-problem")) node.textContent = "";
    for (const node of document.querySelectorAll(".free.bad, .target-field.bad")) node.classList.remove("bad");
    const general = [];
    const rows = document.querySelectorAll("#cal-targets .target");
    for (const p of problems) {
      let where = null;
      if (p.target !== undefined && rows[p.target]) {
        where = rows[p.target].querySelector(`.target-field[data-field="${CSS.escape(p.field || "set")}"]`);
      } else if (p.key) {
        where = document.querySelector(`.free[data-free="${CSS.escape(p.key)}"]`);
      }
      if (!where) { general.push(p.message); continue; }
      where.classList.add("bad");
      const line = where.querySelector(".problem");
      line.textContent = (line.textContent ? line.textContent + "\n" : "") + p.message;
    }
    solveSaid = general.join("\n");
    sayProblems();
  }

  function showResult(event, on) {
    solution = event;
    solution.on = on;  // solved for this scenario: Accept puts it into its cells only
    const box = byId("cal-result");
    box.replaceChildren();
    box.append(el("p", { class: "cal-summary" }, `${event.summary} (${event.method_label})`));
    const values = el("table", { id: "cal-values" });
    for (const f of event.free) {
      const tr = el("tr", { "data-key": f.key });
      // a free cell of a row named by the row the page numbers ("injury row 2
      // (injuries[1].count)"), its key alone counting from 0
      tr.append(el("th", { scope: "row", title: f.key }, f.where || f.key),
        el("td", { class: "cal-value" }, f.value),
        el("td", {}, `${f.low} – ${f.high}`));
      values.append(tr);
    }
    box.append(values);
    const list = el("ul", { id: "cal-reached" });
    for (const t of event.targets) list.append(el("li", { class: t.met ? "met" : "not-met", "data-met": String(t.met) }, t.text));
    box.append(list);
    for (const c of event.conflicts) box.append(el("p", { class: "problem" }, c));
    // a free key stopped at an end of its range (the answer may lie beyond it), as calibrate says
    for (const note of event.notes || []) box.append(el("p", { class: "problem cal-note" }, note));
    for (const key of event.ends || []) {
      const row = values.querySelector(`tr[data-key="${CSS.escape(key)}"]`);
      if (row) row.classList.add("at-end");
    }
    byId("cal-accept").disabled = scenario.name !== on;  // another open now: not for it
  }

  async function solve() {
    if (typeof scenario === "undefined" || !scenario) return;
    if (solving) solving.abort();
    const mine = (solving = new AbortController());
    const on = scenario.name;  // the scenario this search is for, whatever opens meanwhile
    const section = byId("calibrate");
    section.dataset.state = "solving";
    solution = null;
    byId("cal-accept").disabled = true;
    byId("cal-result").replaceChildren();
    byId("cal-accepted").textContent = "";
    byId("cal-log").textContent = CW["solving…"];
    place([]);
    try {
      const response = await fetch("/api/calibrate", { method: "POST", body: asked(),
        signal: mine.signal, headers: { "Content-Type": "application/json" } });
      if (!response.ok) throw new Error(await refusedText(response));
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n")) >= 0) {
          const event = JSON.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 1);
          if (mine !== solving) return;
          if (event.type === "changed") {  // the file changed on disk: the page reads it again
            section.dataset.state = "idle";
            reread();
          } else if (event.type === "started") byId("cal-log").textContent = "";
          else if (event.type === "round") byId("cal-log").textContent += event.line + "\n";
          else if (event.type === "problems") {
            place(event.problems);
            section.dataset.state = "problems";
          } else if (event.type === "result") {
            showResult(event, on);
            section.dataset.state = "solved";
          }
        }
      }
      if (mine === solving && section.dataset.state === "solving") section.dataset.state = "idle";
    } catch (error) {
      if (error.name === "AbortError") return;
      solveSaid = String(error.message || error);
      sayProblems();
      section.dataset.state = "failed";
    }
  }

  function accept() {
    if (!solution || solution.on !== scenario.name) return;
    for (const f of solution.free) {
      const input = document.querySelector(`[data-original][data-key="${CSS.escape(f.key)}"]`);
      if (!input) continue;
      input.value = f.value;
      input.dispatchEvent(new Event("change"));  // an edit: the answer follows, save-as saves it
    }
    byId("cal-accepted").textContent = CW["The accepted values are now edits of the table: save them as a new file."];
    byId("calibrate").dataset.state = "accepted";
  }

  new MutationObserver(freeAll).observe(byId("edit"), { childList: true, subtree: true });
  freeAll();
  byId("cal-add").addEventListener("click", () => addTarget());
  byId("cal-solve").addEventListener("click", solve);
  byId("cal-accept").addEventListener("click", accept);
  byId("scenario").addEventListener("change", () => {  // a solution is its scenario's
    if (solution && solution.on !== byId("scenario").value) {
      solution = null;
      byId("cal-accept").disabled = true;
      byId("cal-accepted").textContent = "";
    }
  });
  // the language link: the free cells, the targets and Solve's trials go along, as page.js
  // takes the edits
  for (const code of ["en", "fr"]) {
    byId("lang-" + code).addEventListener("click", () => {
      const targets = targetsTyped();
      sessionStorage.setItem("calibrate-kept", JSON.stringify({ free: kept, targets,
        trials: byId("cal-trials").value }));
    });
  }
  // reloading or closing the page with inputs typed into Solve asks first, as page.js asks
  // for edits not saved: no file holds them (a save-as writes the cells only), and only the
  // language link carries them (page.js's carried, set before it leaves: asks nothing)
  window.addEventListener("beforeunload", (event) => {
    if ((typeof carried !== "undefined" && carried) || !typedInSolve()) return;
    event.preventDefault();
    event.returnValue = "";
  });
  // the scenario the language link carried its free boxes for could not be opened (a file
  // broken or gone): they are said, as page.js says its edits, and not kept unsaid
  window.solveNotOpened = (name) => {
    if (!brought || brought.of !== name) return;
    const lost = brought;
    brought = null;
    kept = {};
    unkept(lost, CW[FREE_NOT_CARRIED].replace("{name}", name));
  };
  const carriedIn = JSON.parse(sessionStorage.getItem("calibrate-kept") || "null");
  sessionStorage.removeItem("calibrate-kept");
  if (carriedIn) {
    kept = carriedIn.free || {};
    brought = kept;
    if (carriedIn.trials !== undefined) byId("cal-trials").value = carriedIn.trials;  // as typed
    for (const given of carriedIn.targets || []) addTarget(given);
  }
  if (!byId("cal-targets").children.length) addTarget();
})();
