// Capacity plans: the form, the answer's chart and tables. Numbers come from /api/v1/plans/;
// this file only sends the question and draws the stored answer.
/* global Plotly */

import { ApiError, clearErrors, fmt, getJSON, sendJSON, showErrors } from "./api.js";
import { COLORS, CONFIG, NUMBERS } from "./charts.js";

const form = document.getElementById("plan-form");
const apiUrl = form.dataset.apiUrl;
const choices = JSON.parse(document.getElementById("plan-choices").textContent);
const tbody = document.querySelector("#workload-table tbody");
const statusEl = document.getElementById("plan-status");
const alertBox = document.getElementById("form-errors");
const answer = document.getElementById("plan-answer");
const chartSelect = document.getElementById("f-chart-candidate");
const machineSelect = document.getElementById("f-machine");
const lparSelect = document.getElementById("f-machine-lpar");
const growthBody = document.querySelector("#machine-growth tbody");
let current = null;
let machines = [];
let machineIndex = null; // the position of the machine candidate in the last question

const EXAMPLE = [
  { path: "zosconnect-cics", configuration: "channel", tps: 2000, peak_ratio: 1.5, growth_pct: 25 },
  { path: "cicsts-catalog", configuration: "v5.3", tps: 60000, peak_ratio: 1.3, growth_pct: 10 },
];

function option(value, text, selected) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  o.selected = selected;
  return o;
}

function cell(child) {
  const td = document.createElement("td");
  td.append(child);
  return td;
}

function input(name, value, label) {
  const el = document.createElement("input");
  el.type = "text";
  el.inputMode = "decimal";
  el.name = name;
  el.value = value ?? "";
  el.setAttribute("aria-label", label);
  return el;
}

function addWorkload(w = {}) {
  const tr = document.createElement("tr");
  const path = document.createElement("select");
  path.name = "path";
  path.setAttribute("aria-label", "Path");
  for (const p of choices.paths) path.append(option(p.slug, p.name, p.slug === w.path));
  const config = document.createElement("select");
  config.name = "configuration";
  config.setAttribute("aria-label", "Configuration");
  const fill = () => {
    const p = choices.paths.find((x) => x.slug === path.value) || choices.paths[0];
    config.replaceChildren(...p.configurations.map((c) => option(c.slug, c.name, c.slug === w.configuration)));
  };
  path.addEventListener("change", fill);
  fill();
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "btn btn-small";
  remove.textContent = "Remove";
  remove.addEventListener("click", () => tr.remove());
  tr.append(
    cell(path),
    cell(config),
    cell(input("tps", w.tps, "Average TPS")),
    cell(input("peak_ratio", w.peak_ratio ?? 1, "Peak over average")),
    cell(input("growth_pct", w.growth_pct ?? 0, "Growth, % a year")),
    cell(remove),
  );
  tbody.append(tr);
}

function number(text) {
  const t = String(text).trim().replaceAll(",", "");
  return t === "" ? null : Number(t);
}

// One of your machines as a candidate: its LPARs, the one taking the work, each one's growth.
async function loadMachines() {
  try {
    const page = await getJSON(form.dataset.cecsUrl);
    machines = Array.isArray(page) ? page : page.results || [];
  } catch {
    machines = [];
  }
  document.getElementById("machine-none").hidden = machines.length > 0;
  for (const m of machines) machineSelect.append(option(String(m.id), `${m.name} (${m.model})`, false));
}

function pickMachine() {
  const m = machines.find((x) => String(x.id) === machineSelect.value);
  lparSelect.disabled = !m;
  lparSelect.replaceChildren(
    ...(m ? [...m.lpars.map((lp, i) => option(lp.name, lp.name, i === 0)), option(NEW_LPAR, "A new LPAR", false)] : []),
  );
  pickLpar();
  growthBody.replaceChildren(
    ...(m
      ? m.lpars.map((lp) => {
          const tr = document.createElement("tr");
          const name = document.createElement("th");
          name.scope = "row";
          name.textContent = lp.name;
          const busy = document.createElement("td");
          busy.className = "num";
          busy.textContent = fmt.num((lp.cp.logical * lp.cp.busy_pct) / 100, 2);
          const growth = input("lpar_growth", 0, `${lp.name} growth, % a year`);
          growth.dataset.lpar = lp.name;
          tr.append(name, busy, cell(growth));
          return tr;
        })
      : []),
  );
  document.getElementById("machine-growth-wrap").hidden = !m;
}

// "A new LPAR" in the LPAR list: its name, logical CPs and zIIPs and their weights (the API's
// lpars[] entry of a machine), sent as the candidate's lpar.
const NEW_LPAR = "(new LPAR)"; // longer than an LPAR name (1..8 characters): never one of them
const newLparBox = document.getElementById("machine-new-lpar");
const newField = (name) => document.getElementById(`f-new-${name}`);

function pickLpar() {
  newLparBox.hidden = lparSelect.value !== NEW_LPAR;
}

function newLpar() {
  const cps = number(newField("cps").value);
  const ziips = number(newField("ziips").value) || 0;
  const lpar = { name: newField("name").value.trim().toUpperCase(), cp: { logical: cps, weight: number(newField("cp-weight").value) } };
  if (ziips > 0) lpar.ziip = { logical: ziips, weight: number(newField("ziip-weight").value) };
  return lpar;
}

function machineCandidate() {
  if (!machineSelect.value) return null;
  const growth = {};
  for (const el of growthBody.querySelectorAll("input")) {
    const v = number(el.value);
    if (v !== null) growth[el.dataset.lpar] = v;
  }
  const lpar = lparSelect.value === NEW_LPAR ? newLpar() : lparSelect.value;
  return { cec: Number(machineSelect.value), lpar, lpar_growth: growth };
}

function question() {
  const horizon = number(form.elements.horizon.value);
  const body = {
    name: form.elements.name.value,
    workloads: [...tbody.rows].map((tr) => ({
      path: tr.querySelector('[name="path"]').value,
      configuration: tr.querySelector('[name="configuration"]').value,
      tps: number(tr.querySelector('[name="tps"]').value),
      peak_ratio: number(tr.querySelector('[name="peak_ratio"]').value),
      growth_pct: number(tr.querySelector('[name="growth_pct"]').value),
    })),
    candidates: form.elements.candidates.value.split(",").map((s) => s.trim()).filter(Boolean),
    generations: [...form.querySelectorAll('[name="generations"]:checked')].map((el) => el.value),
  };
  const machine = machineCandidate();
  machineIndex = machine ? body.candidates.length : null;
  if (machine) body.candidates.push(machine);
  body[form.elements.period.value === "quarter" ? "horizon_quarters" : "horizon_years"] = horizon;
  const ceiling = number(form.elements.max_utilization.value);
  if (ceiling !== null) body.max_utilization = ceiling;
  return body;
}

// A nested error ({lpar_growth: {PROD: [..]}}) as sentences: "lpar_growth PROD: ...".
function sentences(value, path = []) {
  if (Array.isArray(value)) return [`${path.length ? `${path.join(" ")}: ` : ""}${value.join(" ")}`];
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => sentences(v, [...path, k]));
  return [String(value)];
}

// Nested errors ({workloads: {"1": {tps: [..]}}}) as sentences next to their section; the
// machine candidate's next to the machine.
function flatten(errors) {
  const out = {};
  for (const [name, value] of Object.entries(errors || {})) {
    if (Array.isArray(value)) out[name === "horizon_quarters" ? "horizon_years" : name] = value;
    else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (name === "candidates" && machineIndex !== null && Number(k) === machineIndex) {
          out.machine = sentences(v);
        } else (out[name] = out[name] || []).push(...sentences(v, [`#${Number(k) + 1}`]));
      }
    } else out[name] = [String(value)];
  }
  return out;
}

const periodText = (plan, p, none) => (p === null || p === undefined ? none : plan.result.periods[p - 1].label.toLowerCase());

function row(cells, numeric = []) {
  const tr = document.createElement("tr");
  cells.forEach((text, i) => {
    const td = document.createElement("td");
    td.textContent = text;
    if (numeric.includes(i)) td.className = "num";
    tr.append(td);
  });
  return tr;
}

// A machine: each pool's busy engines per period stacked by LPAR, against the CEC's ceiling and
// the ceiling of the share of the LPAR taking the work.
function drawMachine(plan, c) {
  const result = plan.result;
  const x = result.periods.map((p) => p.label);
  const names = c.lpar_runs_out.filter((o) => o.name !== null).map((o) => o.name);
  const pools = c.periods[0].pools.map((p) => p.pool);
  const data = [];
  const layout = {
    barmode: "stack",
    margin: { l: 58, r: 16, t: 8, b: 46 },
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "#fff",
    legend: { orientation: "h", x: 0, y: 1.0, yanchor: "bottom", font: { size: 11 } },
    xaxis: { title: { text: "Period" }, anchor: pools.length > 1 ? "y2" : "y" },
    shapes: [],
    annotations: [],
  };
  pools.forEach((pool, k) => {
    const axis = k === 0 ? "y" : "y2";
    const engine = c.periods[0].pools[k].engine;
    layout[k === 0 ? "yaxis" : "yaxis2"] = {
      title: { text: `Busy ${engine}s` },
      rangemode: "tozero",
      domain: pools.length > 1 ? (k === 0 ? [0.55, 1] : [0, 0.42]) : [0, 1],
    };
    names.forEach((name, i) => {
      data.push({ type: "bar", name, legendgroup: name, showlegend: k === 0, x, yaxis: axis,
        y: c.periods.map((q) => (q.lpars.find((r) => r.name === name && r.pool === pool) || { busy: 0 }).busy),
        marker: { color: COLORS.series[i % COLORS.series.length] },
        hovertemplate: `%{y:,.2f} busy ${engine}s<extra>${name}${name === c.lpar ? " (with the work)" : ""}</extra>` });
    });
    data.push({ type: "scatter", mode: "lines", name: "CEC ceiling", legendgroup: "cec", showlegend: k === 0, x, yaxis: axis,
      y: c.periods.map((q) => q.pools[k].capacity), line: { color: COLORS.capacity, shape: "hvh", width: 2 } });
    data.push({ type: "scatter", mode: "lines", name: `${c.lpar}: ceiling of its share`, legendgroup: "share", showlegend: k === 0, x, yaxis: axis,
      y: c.periods.map((q) => q.lpars.find((r) => r.name === c.lpar && r.pool === pool).ceiling_of_share),
      line: { color: COLORS.ceiling, shape: "hvh", dash: "dash" } });
  });
  Plotly.react(document.getElementById("plan-chart"), data, layout, CONFIG);
}

function runOutText(plan, o) {
  const who = o.name === null ? "The CEC" : o.name;
  let text = `${who}: ${o.period === null ? "lasts the horizon" : `${periodText(plan, o.period)} (${o.engine}s)`}`;
  if (o.earliest !== o.period || o.latest !== o.period) {
    text += `; ${periodText(plan, o.earliest, "beyond")} .. ${periodText(plan, o.latest, "beyond")} over the cost range`;
  }
  return `${text}.`;
}

// A range's ends, or a dash where the cost range does not move the figure.
const span = (low, high) => (fmt.num(low, 2) === fmt.num(high, 2) ? "—" : `${fmt.num(low, 2)} to ${fmt.num(high, 2)}`);

function machineAnswer(plan, c) {
  const section = document.createElement("section");
  section.className = "machine-answer";
  const h = document.createElement("h3");
  h.textContent = `Your machine: ${c.label}`;
  const intro = document.createElement("p");
  intro.className = "small";
  intro.textContent = `${c.cec.name}: ${c.model} (${c.machine_name}), ${fmt.int(c.cps)} CPs, ${fmt.int(c.cec.ziips)} ${c.specialty}s; as of ${c.cec.as_of}. ` +
    `The workloads go into ${c.new_lpar ? "a new LPAR, " : "LPAR "}${c.lpar}; an LPAR holds while its load is within the ceiling of its guaranteed share, the CEC while all LPARs are within the ceiling of each pool's engines.`;
  const list = document.createElement("ul");
  list.className = "plain-list run-outs small";
  for (const o of c.lpar_runs_out) {
    const li = document.createElement("li");
    li.textContent = runOutText(plan, o);
    list.append(li);
  }
  const wrap = document.createElement("div");
  wrap.className = "table-scroll";
  const table = document.createElement("table");
  table.className = "table table-compact machine-table";
  const head = document.createElement("thead");
  head.append(row(["Period", "LPAR", "Engine", "Busy", "Range", "Ceiling", "Holds"], [3, 4, 5]));
  head.querySelectorAll("td").forEach((td) => {
    const th = document.createElement("th");
    th.scope = "col";
    th.className = td.className;
    th.textContent = td.textContent;
    td.replaceWith(th);
  });
  const body = document.createElement("tbody");
  c.periods.forEach((q, i) => {
    const label = plan.result.periods[i].label;
    for (const r of q.lpars) {
      body.append(row([label, r.takes_work ? `${r.name} (the work)` : r.name, r.engine, fmt.num(r.busy, 2),
        span(r.busy_low, r.busy_high), fmt.num(r.ceiling_of_share, 2), r.holds ? "yes" : "no"], [3, 4, 5]));
    }
    for (const p of q.pools) {
      body.append(row([label, "All LPARs (the CEC)", p.engine, fmt.num(p.busy, 2), span(p.busy_low, p.busy_high),
        `${fmt.num(p.capacity, 2)} of ${fmt.int(p.installed)}`, p.holds ? "yes" : "no"], [3, 4, 5]));
    }
  });
  table.append(head, body);
  wrap.append(table);
  section.append(h, intro, list);
  const first = c.periods.find((q) => !q.holds);
  if (first) {
    const why = document.createElement("p");
    why.className = "small";
    why.textContent = `In ${periodText(plan, first.period)}: ${first.reasons.map((r) => r.message).join(" ")}`;
    section.append(why);
    if (first.changes.length) {
      const changes = document.createElement("ul");
      changes.className = "small";
      for (const s of first.changes) {
        const li = document.createElement("li");
        li.textContent = s;
        changes.append(li);
      }
      section.append(changes);
    }
  }
  section.append(wrap);
  return section;
}

function drawChart(plan, index) {
  const result = plan.result;
  const c = result.candidates[index];
  if (c.kind === "cec") {
    drawMachine(plan, c);
    return;
  }
  const x = result.periods.map((p) => p.label);
  // the workloads by their products' names (a plan stored before it had them: its slugs)
  const labels = result.periods[0].workloads.map((w) => w.name || w.label);
  const eng = c.specialty || "zIIP"; // zAAP on z10..zEC12
  const data = [];
  labels.forEach((label, i) => {
    data.push({ type: "bar", name: `${label} · CPs`, x, y: c.periods.map((q) => q.workloads[i].gcp_busy),
      marker: { color: COLORS.series[i % COLORS.series.length] }, hovertemplate: "%{y:,.2f} busy CPs<extra>%{fullData.name}</extra>" });
  });
  labels.forEach((label, i) => {
    data.push({ type: "bar", name: `${label} · ${eng}s`, x, y: c.periods.map((q) => q.workloads[i].ziip_busy),
      marker: { color: COLORS.series[(i + labels.length) % COLORS.series.length], pattern: { shape: "/" } },
      hovertemplate: `%{y:,.2f} busy ${eng}s<extra>%{fullData.name}</extra>` });
  });
  data.push({ type: "scatter", mode: "lines", name: "CPs installed", x, y: c.periods.map((q) => q.cps), line: { color: COLORS.capacity, shape: "hvh", width: 2 } });
  data.push({ type: "scatter", mode: "lines", name: "CP ceiling", x, y: c.periods.map((q) => q.cps * q.ceiling), line: { color: COLORS.ceiling, shape: "hvh", dash: "dash" } });
  data.push({ type: "scatter", mode: "lines", name: `CPs + ${eng}s`, x, y: c.periods.map((q) => q.cps + q.ziips), line: { color: COLORS.ziip, shape: "hvh", dash: "dot" } });
  const layout = {
    barmode: "stack",
    margin: { l: 58, r: 16, t: 8, b: 46 },
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "#fff",
    legend: { orientation: "h", x: 0, y: 1.0, yanchor: "bottom", font: { size: 11 } },
    xaxis: { title: { text: "Period" } },
    yaxis: { title: { text: `Busy engines (${c.label})` }, rangemode: "tozero", ...NUMBERS },
    shapes: [],
    annotations: [],
  };
  if (c.runs_out) {
    const at = x[c.runs_out - 1];
    layout.shapes.push({ type: "line", xref: "x", x0: at, x1: at, yref: "paper", y0: 0, y1: 1, line: { color: COLORS.target, width: 2, dash: "dash" } });
    layout.annotations.push({ xref: "x", x: at, yref: "paper", y: 1, xanchor: "left", yanchor: "top", showarrow: false,
      text: `runs out: ${at.toLowerCase()}`, font: { size: 11, color: COLORS.target } });
  }
  const el = document.getElementById("plan-chart");
  Plotly.react(el, data, layout, CONFIG);
}

function render(plan) {
  current = plan;
  const result = plan.result;
  answer.hidden = false;
  document.getElementById("plan-recommendation").textContent = result.recommendation.sentence;
  document.getElementById("plan-pdf").href = plan.report_url;
  document.getElementById("plan-csv").href = plan.csv_url;
  document.getElementById("plan-xlsx").href = plan.xlsx_url;
  const lpars = Boolean(result.lpar_table);
  for (const [id, url] of [["plan-lpars-csv", plan.csv_url], ["plan-lpars-xlsx", plan.xlsx_url]]) {
    const link = document.getElementById(id);
    link.hidden = !lpars;
    link.href = `${url}?table=lpars`;
  }
  document.getElementById("machine-answers").replaceChildren(
    ...result.candidates.filter((c) => c.kind === "cec").map((c) => machineAnswer(plan, c)),
  );
  const runout = document.querySelector("#runout-table tbody");
  runout.replaceChildren(
    ...result.candidates.map((c) =>
      row([
        c.label,
        c.models.map((m) => `${m.model}: ${fmt.int(m.msu_installed)}`).join(", "),
        periodText(plan, c.runs_out, "lasts the horizon"),
        `${periodText(plan, c.runs_out_range.earliest, "beyond")} .. ${periodText(plan, c.runs_out_range.latest, "beyond")}`,
      ]),
    ),
  );
  // the specialty engine of every candidate: zAAP on z10..zEC12, zIIP later; both: say neither
  const engines = new Set(result.candidates.map((c) => c.specialty || "zIIP"));
  const eng = engines.size === 1 ? [...engines][0] : null;
  document.getElementById("th-specialty").textContent = eng ? `${eng}s` : "zAAPs or zIIPs";
  document.getElementById("th-specialty-busy").textContent = eng ? `${eng} busy` : "zAAP or zIIP busy";
  const periods = document.querySelector("#period-table tbody");
  periods.replaceChildren(
    ...result.candidates.flatMap((c) =>
      c.periods.map((q, i) =>
        row(
          [
            c.label,
            result.periods[i].label,
            q.model,
            fmt.int(q.cps),
            fmt.int(q.ziips),
            fmt.pct(q.gcp_utilization),
            q.ziip_utilization === null ? "—" : fmt.pct(q.ziip_utilization),
            fmt.int(q.msu_consumed),
            q.holds ? "yes" : q.reasons.map((r) => r.message).join(" "),
          ],
          [3, 4, 5, 6, 7],
        ),
      ),
    ),
  );
  chartSelect.replaceChildren(...result.candidates.map((c, i) => option(String(i), c.label, i === 0)));
  drawChart(plan, 0);
}

async function follow(url) {
  for (;;) {
    const plan = await getJSON(url);
    if (plan.status === "succeeded") return plan;
    if (plan.status === "failed" || plan.status === "cancelled") throw new ApiError(409, {}, plan.error || `The plan ${plan.status}.`);
    statusEl.textContent = `Evaluating on the workers: ${plan.progress}% of the candidates done…`;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(form, { alertBox });
  const button = document.getElementById("plan-submit");
  button.disabled = true;
  statusEl.textContent = "Evaluating…";
  try {
    let plan = await sendJSON("POST", apiUrl, question());
    if (plan.status !== "succeeded") plan = await follow(plan.url);
    statusEl.textContent = "Saved.";
    render(plan);
    answer.scrollIntoView({ behavior: "smooth", block: "start" });
  } catch (err) {
    statusEl.textContent = "";
    if (err instanceof ApiError && err.status === 400) showErrors(form, flatten(err.fields), { alertBox });
    else {
      alertBox.textContent = err.message;
      alertBox.hidden = false;
    }
  } finally {
    button.disabled = false;
  }
});

document.getElementById("add-workload").addEventListener("click", () => addWorkload({}));
machineSelect.addEventListener("change", pickMachine);
lparSelect.addEventListener("change", pickLpar);
const machinesLoaded = loadMachines();
chartSelect.addEventListener("change", () => current && drawChart(current, Number(chartSelect.value)));

// A reopened plan fills the form with its own question (as stored: docs/plans.md), never the
// example's: its workloads, periods, horizon, ceiling, candidate models and generations.
function fillForm(inputs) {
  const f = form.elements;
  f.name.value = inputs.name ?? "";
  f.horizon.value = inputs.horizon ?? "";
  f.period.value = inputs.period === "quarter" ? "quarter" : "year";
  f.max_utilization.value = inputs.options?.max_utilization ?? "";
  tbody.replaceChildren();
  // growth_tps (TPS a period, from the API) has no column here: its row shows no growth in %.
  (inputs.workloads || []).forEach((w) => addWorkload({ ...w, growth_pct: w.growth_pct ?? (w.growth_tps != null ? "" : 0) }));
  const boxes = [...form.querySelectorAll('[name="generations"]')];
  const generations = new Set();
  const models = [];
  let machine = null;
  for (const c of inputs.candidates || []) {
    if (c.cec != null) machine = c;
    else if (c.kind === "generation" && boxes.some((b) => b.value === c.machine)) generations.add(c.machine);
    else models.push(c.kind === "model" ? c.model : c.machine);
  }
  f.candidates.value = models.join(", ");
  boxes.forEach((b) => (b.checked = generations.has(b.value)));
  return machine;
}

// A reopened plan's own machine candidate: the machine, the LPAR taking the work, each growth.
// A stored candidate names the machine as {id, name, ...} (a snapshot) and a new LPAR in new_lpar.
function fillMachine(c) {
  const id = c && c.cec !== null && typeof c.cec === "object" ? c.cec.id : c?.cec;
  machineSelect.value = c ? String(id) : "";
  pickMachine();
  if (!c) return;
  const fresh = c.new_lpar || (c.lpar && typeof c.lpar === "object" ? c.lpar : null);
  if (fresh) {
    lparSelect.value = NEW_LPAR;
    newField("name").value = fresh.name || "";
    newField("cps").value = fresh.cp?.logical ?? "";
    newField("cp-weight").value = fresh.cp?.weight ?? "";
    newField("ziips").value = fresh.ziip?.logical ?? 0;
    newField("ziip-weight").value = fresh.ziip?.weight ?? 100;
  } else if (typeof c.lpar === "string") lparSelect.value = c.lpar;
  pickLpar();
  for (const el of growthBody.querySelectorAll("input")) {
    const g = (c.lpar_growth || {})[el.dataset.lpar];
    if (g != null) el.value = g;
  }
}

async function reopenPlan(id) {
  statusEl.textContent = "Opening the plan…";
  let plan = await getJSON(`${apiUrl}${id}/`);
  const machine = fillForm(plan.inputs);
  await machinesLoaded;
  fillMachine(machine);
  if (plan.status !== "succeeded") plan = await follow(plan.url);
  statusEl.textContent = "";
  render(plan);
}

const reopen = new URLSearchParams(window.location.search).get("plan");
if (reopen && /^\d+$/.test(reopen)) {
  reopenPlan(reopen).catch((err) => {
    statusEl.textContent = "";
    if (!tbody.rows.length) EXAMPLE.forEach((w) => addWorkload(w));
    alertBox.textContent = `Plan ${reopen} could not be opened: ${err.message}`;
    alertBox.hidden = false;
  });
} else EXAMPLE.forEach((w) => addWorkload(w));
