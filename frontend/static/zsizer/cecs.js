// Your machines: the CEC form (by hand or read from RMF), the machine drawn as pools and LPARs,
// and workloads placed into one of its LPARs. Numbers come from /api/v1/cecs/; this file only
// sends the questions and draws the answers.
/* global Plotly */

import { ApiError, fmt, sendJSON } from "./api.js";
import { COLORS, CONFIG, NUMBERS } from "./charts.js";
import { customerQuery } from "./customer.js";

const choices = JSON.parse(document.getElementById("cec-choices").textContent);
const machine = JSON.parse(document.getElementById("cec-machine").textContent);

const EXAMPLE_LPARS = [
  { name: "PROD", cp: { logical: 8, weight: 700, busy_pct: 61.25 }, ziip: { logical: 4, weight: 700, busy_pct: 21 } },
  { name: "TEST", cp: { logical: 4, weight: 200, busy_pct: 30 }, ziip: { logical: 2, weight: 200, busy_pct: 10 } },
  { name: "DEV", cp: { logical: 2, weight: 100, busy_pct: 25 }, ziip: { logical: 1, weight: 100, busy_pct: 10 } },
];

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function option(value, text, selected) {
  const o = el("option", { value }, text);
  o.selected = selected;
  return o;
}

function cell(child) {
  const td = el("td");
  td.append(child);
  return td;
}

function input(name, value, label) {
  const e = el("input", { type: "text", name, "aria-label": label });
  e.value = value ?? "";
  return e;
}

// {"lpars": {"0": {"cp": {"weight": ["..."]}}}} -> "lpars 1, cp, weight: ..." (positions from 1).
function flatten(fields, prefix = []) {
  const out = [];
  for (const [k, v] of Object.entries(fields || {})) {
    const key = /^\d+$/.test(k) ? `${Number(k) + 1}` : k;
    if (Array.isArray(v)) out.push(`${[...prefix, key].join(" ")}: ${v.join(" ")}`);
    else if (v && typeof v === "object") out.push(...flatten(v, [...prefix, key]));
    else out.push(`${[...prefix, key].join(" ")}: ${v}`);
  }
  return out;
}

function showAlert(box, error) {
  const lines = error instanceof ApiError && error.fields ? flatten(error.fields) : [];
  box.textContent = lines.length ? lines.join(" · ") : error.message;
  box.hidden = false;
}

const num = (v) => (v === "" || v === null || v === undefined ? undefined : Number(v));

// ---- the machine form ---------------------------------------------------------------------
const cecForm = document.getElementById("cec-form");
const lparBody = document.querySelector("#lpar-table tbody");

function addLpar(lp = {}) {
  const tr = el("tr");
  const ded = el("input", { type: "checkbox", name: "dedicated", "aria-label": "Dedicated" });
  ded.checked = Boolean(lp.dedicated);
  const cp = lp.cp || {};
  const z = lp.ziip || {};
  const remove = el("button", { type: "button", class: "btn btn-quiet btn-small" }, "Remove");
  remove.addEventListener("click", () => tr.remove());
  tr.append(
    cell(input("name", lp.name, "LPAR name")),
    cell(ded),
    cell(input("cp_logical", cp.logical, "Logical CPs")),
    cell(input("cp_weight", cp.weight, "CP weight")),
    cell(input("cp_busy", cp.busy_pct, "CP busy %")),
    cell(input("ziip_logical", z.logical, "Logical zIIPs")),
    cell(input("ziip_weight", z.weight, "zIIP weight")),
    cell(input("ziip_busy", z.busy_pct, "zIIP busy %")),
    cell(remove),
  );
  lparBody.append(tr);
}

function lparRows() {
  return [...lparBody.querySelectorAll("tr")].map((tr) => {
    const v = (n) => tr.querySelector(`[name="${n}"]`).value.trim();
    const dedicated = tr.querySelector('[name="dedicated"]').checked;
    const pool = (p) => {
      const out = { logical: num(v(`${p}_logical`)) ?? 0, busy_pct: num(v(`${p}_busy`)) ?? 0 };
      if (!dedicated && v(`${p}_weight`)) out.weight = num(v(`${p}_weight`));
      return out;
    };
    return { name: v("name"), dedicated, cp: pool("cp"), ziip: pool("ziip") };
  });
}

document.getElementById("add-lpar").addEventListener("click", () => addLpar());

document.getElementById("c-read").addEventListener("click", async () => {
  const box = document.getElementById("cec-errors");
  box.hidden = true;
  try {
    const read = await sendJSON("POST", cecForm.dataset.parseUrl, { text: document.getElementById("c-rmf").value });
    lparBody.replaceChildren();
    read.lpars.forEach((lp) => addLpar(lp));
    document.getElementById("c-ziips").value = read.ziips;
    document.getElementById("c-icfs").value = read.icfs;
    document.getElementById("c-ifls").value = read.ifls;
    document.getElementById("cec-status").textContent =
      `Read ${read.lpars.length} LPARs and ${read.cps_installed} CPs installed: check them, give the model, and save.`;
  } catch (error) {
    showAlert(box, error);
  }
});

cecForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const box = document.getElementById("cec-errors");
  box.hidden = true;
  const body = {
    name: document.getElementById("c-name").value,
    model: document.getElementById("c-model").value,
    ziips: num(document.getElementById("c-ziips").value) ?? 0,
    icfs: num(document.getElementById("c-icfs").value) ?? 0,
    ifls: num(document.getElementById("c-ifls").value) ?? 0,
    lpars: lparRows(),
  };
  const asOf = document.getElementById("c-as_of").value;
  if (asOf) body.as_of = asOf;
  try {
    const saved = await sendJSON("POST", cecForm.dataset.apiUrl, body);
    window.location.search = `?cec=${saved.id}`;
  } catch (error) {
    showAlert(box, error);
  }
});

EXAMPLE_LPARS.forEach((lp) => addLpar(lp));

// ---- the machine drawn as pools and LPARs --------------------------------------------------
function drawMachine(answer) {
  const target = document.getElementById("cec-chart");
  if (!target || !machine || typeof Plotly === "undefined") return;
  const pools = Object.entries(machine.shares);
  const labels = [];
  const today = [];
  const added = [];
  const headroom = [];
  const share = [];
  const ceiling = answer ? answer.ceiling : 0.85;
  for (const [pool, data] of pools) {
    const engine = pool === "cp" ? "CPs" : `${machine.specialty}s`;
    for (const s of data.lpars) {
      const placed = answer && answer.lpar === s.name ? answer.pools.find((p) => p.pool === pool) : null;
      const busy = placed ? placed.today : s.busy;
      const add = placed ? placed.added : 0;
      labels.push(`${s.name} · ${engine}`);
      today.push(busy);
      added.push(add);
      share.push(s.share);
      headroom.push(Math.max(0, ceiling * s.share - busy - add));
    }
  }
  const bar = (name, x, color) => ({
    type: "bar", orientation: "h", name, y: labels, x, marker: { color },
    hovertemplate: `%{y}<br>${name}: %{x:.2f} engines<extra></extra>`,
  });
  const traces = [
    bar("Busy today", today, COLORS.gcp),
    bar("Added demand", added, COLORS.target),
    bar(`Headroom to ${fmt.pct(ceiling)} of the share`, headroom, "rgba(42, 157, 143, 0.35)"),
    {
      type: "scatter", mode: "markers", name: "Guaranteed share", y: labels, x: share,
      marker: { symbol: "line-ns-open", size: 22, color: COLORS.capacity, line: { width: 3 } },
      hovertemplate: "%{y}<br>Guaranteed share: %{x:.2f} engines<extra></extra>",
    },
  ];
  const layout = {
    barmode: "stack", margin: { l: 120, r: 24, t: 8, b: 46 }, height: 60 + 38 * labels.length,
    xaxis: { title: { text: "Engines" }, rangemode: "tozero", ...NUMBERS }, yaxis: { autorange: "reversed" },
    legend: { orientation: "h", y: -0.25 }, paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "#fff",
  };
  Plotly.react(target, traces, layout, CONFIG);
}

// ---- placing workloads ----------------------------------------------------------------------
const placeForm = document.getElementById("place-form");
let lastQuestion = null;

// The same question as a file (?format=pdf or csv): POSTed, then saved by the browser.
async function download(format) {
  const token = document.querySelector('meta[name="csrf-token"]')?.content ?? "";
  const response = await fetch(`${placeForm.dataset.apiUrl}?format=${format}${format === "pdf" ? customerQuery() : ""}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": token },
    body: JSON.stringify(lastQuestion),
  });
  if (!response.ok) throw new ApiError(response.status, {}, `The server answered ${response.status}.`);
  const link = el("a", { href: URL.createObjectURL(await response.blob()), download: `zsizer-placement.${format}` });
  document.body.append(link);
  link.click();
  link.remove();
}

function addPlaceWorkload(w = {}) {
  const body = document.querySelector("#place-workloads tbody");
  const tr = el("tr");
  const path = el("select", { name: "path", "aria-label": "Path" });
  for (const p of choices.paths) path.append(option(p.slug, p.name, p.slug === w.path));
  const config = el("select", { name: "configuration", "aria-label": "Configuration" });
  const fill = () => {
    const p = choices.paths.find((x) => x.slug === path.value) || choices.paths[0];
    config.replaceChildren(...p.configurations.map((c) => option(c.slug, c.name, c.slug === w.configuration)));
  };
  path.addEventListener("change", fill);
  fill();
  const remove = el("button", { type: "button", class: "btn btn-quiet btn-small" }, "Remove");
  remove.addEventListener("click", () => tr.remove());
  tr.append(cell(path), cell(config), cell(input("tps", w.tps, "Rate, TPS")), cell(remove));
  body.append(tr);
}

function poolRow(p, software) {
  // past a workload's own software limit no pool carries the work, whatever its busy
  const tr = el("tr");
  const cells = [
    `${p.engine}s`,
    fmt.num(p.today, 2),
    `${fmt.num(p.added, 2)} (${fmt.num(p.added_low, 2)} to ${fmt.num(p.added_high, 2)})`,
    fmt.num(p.total, 2),
    fmt.num(p.ceiling * p.share, 2),
    `${fmt.num(p.cec_busy, 2)} of ${p.installed}`,
    p.fits && !software ? "yes" : "no",
    software
      ? "the workload's software limit"
      : { share: "its share (weight)", logical: "its logical engines", cec: "the CEC's engines" }[p.binding] || "",
  ];
  cells.forEach((text, i) => tr.append(el(i === 0 ? "th" : "td", i === 0 ? { scope: "row" } : { class: "num" }, text)));
  return tr;
}

function showPlacement(answer) {
  document.getElementById("place-answer").hidden = false;
  const names = answer.workloads.map((w) => `${w.name || w.path} at ${fmt.rate(w.tps)} TPS`).join(", ");
  // A workload past its own software limit: the reason, not a change (no machine raises it).
  const software = answer.changes.filter((c) => c.kind === "software-limit").map((c) => c.sentence);
  const changes = answer.changes.filter((c) => c.kind !== "software-limit");
  const reason = software.length ? ` ${software.join(" ")}` : "";
  document.getElementById("place-sentence").textContent = answer.fits
    ? `${names} fits in ${answer.lpar} within ${fmt.pct(answer.ceiling)} of its guaranteed share.`
    : `${names} does not fit in ${answer.lpar} within ${fmt.pct(answer.ceiling)} of its guaranteed share.${reason}`;
  document.querySelector("#place-table tbody").replaceChildren(...answer.pools.map((p) => poolRow(p, software.length > 0)));
  const heading = document.getElementById("place-changes-heading");
  heading.hidden = !changes.length;
  heading.textContent = software.length
    ? "Changes the pools need besides, cheapest first"
    : "Changes that make it fit, cheapest first";
  document.getElementById("place-changes").replaceChildren(...changes.map((c) => el("li", {}, c.sentence)));
  const after = answer.with_specialty_change;
  const rest = after && after.changes.length ? ` Then: ${after.changes.map((c) => c.sentence).join(" ")}` : "";
  document.getElementById("place-after").textContent = after
    ? `With the first change (${after.change.replace(/\.$/, "")}) the work ${after.fits ? "fits" : "still does not fit"}.${rest}`
    : "";
  drawMachine(answer);
}

if (placeForm) {
  document.getElementById("add-place-workload").addEventListener("click", () => addPlaceWorkload());
  for (const format of ["pdf", "csv", "xlsx"]) {
    document.getElementById(`place-${format}`).addEventListener("click", () =>
      download(format).catch((error) => showAlert(document.getElementById("place-errors"), error)),
    );
  }
  addPlaceWorkload({ path: "zosconnect-cics", configuration: "channel", tps: 2000 });
  placeForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const box = document.getElementById("place-errors");
    box.hidden = true;
    const status = document.getElementById("place-status");
    status.textContent = "Placing…";
    const workloads = [...placeForm.querySelectorAll("#place-workloads tbody tr")].map((tr) => ({
      path: tr.querySelector('[name="path"]').value,
      configuration: tr.querySelector('[name="configuration"]').value,
      tps: num(tr.querySelector('[name="tps"]').value),
    }));
    const body = { lpar: document.getElementById("p-lpar").value, workloads };
    const ceiling = num(document.getElementById("p-max_utilization").value);
    if (ceiling !== undefined) body.max_utilization = ceiling;
    try {
      showPlacement(await sendJSON("POST", placeForm.dataset.apiUrl, body));
      lastQuestion = body;
      status.textContent = "";
    } catch (error) {
      status.textContent = "";
      showAlert(box, error);
    }
  });
}

window.addEventListener("load", () => drawMachine(null));
