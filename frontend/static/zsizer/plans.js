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
let current = null;

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
  body[form.elements.period.value === "quarter" ? "horizon_quarters" : "horizon_years"] = horizon;
  const ceiling = number(form.elements.max_utilization.value);
  if (ceiling !== null) body.max_utilization = ceiling;
  return body;
}

// Nested errors ({workloads: {"1": {tps: [..]}}}) as sentences next to their section.
function flatten(errors) {
  const out = {};
  for (const [name, value] of Object.entries(errors || {})) {
    if (Array.isArray(value)) out[name === "horizon_quarters" ? "horizon_years" : name] = value;
    else if (value && typeof value === "object") {
      out[name] = Object.entries(value).flatMap(([k, v]) =>
        Array.isArray(v) ? [`#${Number(k) + 1}: ${v.join(" ")}`] : Object.entries(v).map(([f, m]) => `#${Number(k) + 1} ${f}: ${[].concat(m).join(" ")}`),
      );
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

function drawChart(plan, index) {
  const result = plan.result;
  const c = result.candidates[index];
  const x = result.periods.map((p) => p.label);
  const labels = result.periods[0].workloads.map((w) => w.label);
  const data = [];
  labels.forEach((label, i) => {
    data.push({ type: "bar", name: `${label} · CPs`, x, y: c.periods.map((q) => q.workloads[i].gcp_busy),
      marker: { color: COLORS.series[i % COLORS.series.length] }, hovertemplate: "%{y:,.2f} busy CPs<extra>%{fullData.name}</extra>" });
  });
  labels.forEach((label, i) => {
    data.push({ type: "bar", name: `${label} · zIIPs`, x, y: c.periods.map((q) => q.workloads[i].ziip_busy),
      marker: { color: COLORS.series[(i + labels.length) % COLORS.series.length], pattern: { shape: "/" } },
      hovertemplate: "%{y:,.2f} busy zIIPs<extra>%{fullData.name}</extra>" });
  });
  data.push({ type: "scatter", mode: "lines", name: "CPs installed", x, y: c.periods.map((q) => q.cps), line: { color: COLORS.capacity, shape: "hvh", width: 2 } });
  data.push({ type: "scatter", mode: "lines", name: "CP ceiling", x, y: c.periods.map((q) => q.cps * q.ceiling), line: { color: COLORS.ceiling, shape: "hvh", dash: "dash" } });
  data.push({ type: "scatter", mode: "lines", name: "CPs + zIIPs", x, y: c.periods.map((q) => q.cps + q.ziips), line: { color: COLORS.ziip, shape: "hvh", dash: "dot" } });
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
chartSelect.addEventListener("change", () => current && drawChart(current, Number(chartSelect.value)));

EXAMPLE.forEach((w) => addWorkload(w));
const reopen = new URLSearchParams(window.location.search).get("plan");
if (reopen && /^\d+$/.test(reopen)) {
  follow(`${apiUrl}${reopen}/`).then(render).catch((err) => {
    alertBox.textContent = err.message;
    alertBox.hidden = false;
  });
}
