// The sizing page: valid choices only, the answer without a page reload, inline 400 errors.
import { ApiError, clearErrors, fmt, getJSON, sendJSON, showErrors } from "./api.js";
import { drawCpu, drawDemand, drawResponse } from "./charts.js";
import { initJobs } from "./jobs.js";
import { initModelPicker } from "./model_picker.js";
import { initTargetsPanel } from "./targets_panel.js";

const choices = JSON.parse(document.getElementById("workbench-choices").textContent);
const initial = JSON.parse(document.getElementById("workbench-initial").textContent);

const form = document.getElementById("size-form");
const alertBox = document.getElementById("form-errors");
const pathSel = document.getElementById("f-path");
const configSel = document.getElementById("f-configuration");
const machineSel = document.getElementById("f-machine");
const settingSel = document.getElementById("f-capacity_setting");
const modelInput = document.getElementById("f-model");
const configHint = document.getElementById("hint-configuration");
const status = document.getElementById("size-status");
const saveButton = document.getElementById("save-button");
const saveStatus = document.getElementById("save-status");
const resultBox = document.getElementById("result");
const emptyState = document.getElementById("empty-state");
const staleBanner = document.getElementById("stale-banner");

const OPTIONAL = [
  "cps", "ziips", "max_utilization", "payload_bytes", "clients", "think_time_s", "response_time_sla_ms", "projection_band",
];
const FIELDS = ["path", "configuration", "model", "machine", "capacity_setting", "tps", ...OPTIONAL];

let lastInputs = null; // inputs of the answer on screen
let targetsPanel = null; // "Other machines" (set up below)
let lastAnswer = null;
let inFlight = null;
let sequence = 0;

function option(value, label) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = label;
  return o;
}

function fillPaths(selected) {
  pathSel.replaceChildren(...choices.paths.map((p) => option(p.slug, p.name)));
  if (selected && choices.paths.some((p) => p.slug === selected.toLowerCase())) pathSel.value = selected.toLowerCase();
}

function currentPath() {
  return choices.paths.find((p) => p.slug === pathSel.value);
}

function fillConfigurations(selected) {
  const path = currentPath();
  const configs = path ? path.configurations : [];
  configSel.replaceChildren(...configs.map((c) => option(c.slug, `${c.slug} · ${c.name}`)));
  const wanted = selected && configs.find((c) => c.slug === selected.toLowerCase());
  if (wanted) configSel.value = wanted.slug;
  else {
    const fitted = configs.find((c) => c.basis === "cpu-fit");
    if (fitted) configSel.value = fitted.slug;
  }
  updateHint();
}

function updateHint() {
  const config = currentPath()?.configurations.find((c) => c.slug === configSel.value);
  if (!config) {
    configHint.textContent = "";
    return;
  }
  const etr = config.etr;
  const range = !etr ? "" : etr.low === etr.high ? ` Published at ${fmt.int(etr.low)} TPS.` : ` Published ETR ${fmt.int(etr.low)}–${fmt.int(etr.high)} TPS.`;
  configHint.textContent = config.basis_text + range;
}

function fillMachines(selected) {
  // The machine stays as chosen when the path changes; by default a current generation.
  const current = machineSel.value;
  machineSel.replaceChildren(...choices.machines.map((m) => option(m.slug, `${m.name} (${m.machine_type})`)));
  const known = (s) => s && choices.machines.some((m) => m.slug === s);
  const wanted = [selected?.toLowerCase(), current, choices.default_machine, currentPath()?.native_machine].find(known);
  if (wanted) machineSel.value = wanted;
  fillSettings();
}

// "3931-510" -> the machine of type 3931 and setting 500 ("9176-D05" -> D00), for a model in the URL.
function machineOfModel(model) {
  const type = String(model || "").trim().slice(0, 4);
  return Object.entries(choices.targets || {}).find(([, t]) => t.machine_type === type)?.[0];
}
function settingOfModel(model) {
  const m = /^\s*\d{4}\s*-?\s*([0-9A-Za-z])/.exec(String(model || ""));
  return m ? `${m[1].toUpperCase()}00` : "";
}

// Capacity settings of the machine: "" is its full-speed setting (the default).
function fillSettings(selected) {
  const target = (choices.targets || {})[machineSel.value];
  const settings = target ? target.settings : [];
  const label = (s) =>
    s === target.full_speed ? `${s} full speed` : /^[4-6]/.test(s) ? `${s} sub-capacity` : `${s} midrange`;
  settingSel.replaceChildren(
    option("", target ? `${target.full_speed} full speed (default)` : "full speed"),
    ...settings.filter((s) => s !== target.full_speed).map((s) => option(s, label(s))),
  );
  const wanted = String(selected || "").toUpperCase();
  if (settings.includes(wanted) && wanted !== target.full_speed) settingSel.value = wanted;
}

// "8,000" -> "8000" (only true thousands groups; a decimal comma is left for the server to reject).
function normaliseNumber(text) {
  const t = text.trim().replace(/[\s_]/g, "");
  return /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(t) ? t.replace(/,/g, "") : t;
}

function readInputs() {
  const inputs = {};
  for (const name of FIELDS) {
    const el = form.elements.namedItem(name);
    const value = el.tagName === "SELECT" ? el.value : normaliseNumber(el.value);
    if (value !== "") inputs[name] = value;
  }
  return inputs;
}

function writeInputs(values) {
  if (values.capacity_setting) fillSettings(values.capacity_setting);
  if (values.model) modelInput.value = String(values.model).toUpperCase();
  for (const name of ["tps", ...OPTIONAL, "name"]) {
    if (values[name] !== undefined && values[name] !== null) form.elements.namedItem(name).value = values[name];
  }
  if (OPTIONAL.some((n) => values[n])) document.getElementById("optional-inputs").open = true;
}

function setBusy(busy) {
  resultBox.classList.toggle("is-busy", busy);
  document.getElementById("size-button").disabled = busy;
  if (busy) status.textContent = "Sizing…";
}

async function run({ focusErrors = true } = {}) {
  const inputs = readInputs();
  if (!inputs.tps) {
    showErrors(form, { tps: ["Enter a target rate in transactions per second."] }, { alertBox });
    if (focusErrors) document.getElementById("f-tps").focus();
    return;
  }
  if (inFlight) inFlight.abort();
  inFlight = new AbortController();
  const mine = ++sequence;
  setBusy(true);
  try {
    const answer = await getJSON(form.dataset.chartUrl || "/ui/chart-data", inputs, { signal: inFlight.signal });
    if (mine !== sequence) return;
    clearErrors(form, { alertBox });
    lastInputs = inputs;
    lastAnswer = answer;
    targetsPanel?.clear();
    render(answer);
    setStale(false);
    history.replaceState(null, "", `?${new URLSearchParams(inputs)}`);
    saveButton.disabled = false;
    saveStatus.textContent = "";
    const n = answer.estimate.cps_required;
    status.textContent = n === null || n === undefined ? "Updated." : `Updated: ${n} CPs.`;
  } catch (err) {
    if (err.name === "AbortError" || mine !== sequence) return;
    const fields = err instanceof ApiError && err.status === 400 ? err.fields : { non_field_errors: [err.message] };
    const first = showErrors(form, fields, { alertBox });
    if (focusErrors && first) first.focus();
    status.textContent = "";
    clearAnswer(); // an answer never stays on screen beside inputs it does not belong to
  } finally {
    if (mine === sequence) setBusy(false);
  }
}

// -- an answer belongs to its inputs -------------------------------------------------------
function sameInputs(a, b) {
  if (!a || !b) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => String(a[k] ?? "") === String(b[k] ?? ""));
}

function setStale(stale) {
  resultBox.classList.toggle("is-stale", stale);
  staleBanner.hidden = !stale;
  saveButton.disabled = stale || !lastInputs;
  if (stale) saveStatus.textContent = "";
}

function onInputEdited() {
  if (!lastInputs) return;
  const stale = !sameInputs(readInputs(), lastInputs);
  setStale(stale);
  if (stale) targetsPanel?.clear();
}

function clearAnswer() {
  targetsPanel?.clear();
  lastInputs = null;
  lastAnswer = null;
  resultBox.hidden = true;
  emptyState.hidden = false;
  staleBanner.hidden = true;
  resultBox.classList.remove("is-stale");
  saveButton.disabled = true;
  saveStatus.textContent = "";
}

function kpi(name, value, sub) {
  document.querySelector(`[data-kpi="${name}"]`).textContent = value;
  document.querySelector(`[data-kpi-sub="${name}"]`).textContent = sub || "";
}

function render(answer) {
  const e = answer.estimate;
  const inp = e.inputs;
  const target = `${answer.target.generation}, ${answer.cpu.capacity.cps ?? "?"} CPs`;
  emptyState.hidden = true;
  resultBox.hidden = false;
  document.getElementById("result-title").textContent =
    `${inp.path} / ${inp.configuration} on ${answer.target.machine_name} at ${fmt.int(e.inputs.tps)} TPS`;
  document.getElementById("result-sub").textContent = `model ${e.model_version} · measured on ${answer.native.generation}` +
    (answer.native.lpar_cps ? ` (${answer.native.lpar_cps} CPs)` : "");

  const busy = e.busy_cps || {};
  const engine = e.specialty_engine || "zIIP"; // the engine's name for this generation (zAAP on old machines)
  const ranges = e.ranges || {};
  const gcpBusy = busy.gcp === null || busy.gcp === undefined ? "" : `${fmt.num(busy.gcp, 2)} busy CPs`;
  const ceiling = Number(inp.max_utilization || 0.85);
  const given = inp.cps ? Number(inp.cps) : null;
  const overloaded = given !== null && e.gcp_utilization !== null && e.gcp_utilization > ceiling && e.cps_required > given;
  const cpsRange = rangeText(ranges.cps, 0);
  if (overloaded) {
    const more = e.cps_required - given;
    kpi("cps_required", "Overloaded", `${given} CPs given: needs ${more} more CP${more === 1 ? "" : "s"} (${e.cps_required} in all) to stay under ${fmt.pct(ceiling)}`);
  } else {
    kpi("cps_required", fmt.int(e.cps_required), [given ? `${given} CPs given` : "", gcpBusy || (e.cps_required === null ? "cannot be sized" : ""), cpsRange].filter(Boolean).join(" · "));
  }
  document.getElementById("kpi-cps-card").classList.toggle("kpi-bad", overloaded);
  document.querySelector('[data-kpi-label="ziips_required"]').textContent = `${engine}s required`;
  kpi(
    "ziips_required",
    fmt.int(e.ziips_required),
    [busy.ziip ? `${fmt.num(busy.ziip, 2)} busy ${engine}s` : `no ${engine} work`, rangeText(ranges.ziips, 0), e.specialty_engine_max != null ? `at most ${fmt.int(e.specialty_engine_max)} for these CPs` : ""].filter(Boolean).join(" · "),
  );
  kpi("mips", e.mips === null ? "—" : `${fmt.int(e.mips)}`, e.mips === null ? "" : `${fmt.int(e.msu)} MSU on CPs`);
  kpi("gcp_utilization", fmt.pct(e.gcp_utilization), e.ziip_utilization === null ? "of the CPs" : `CPs · zIIPs ${fmt.pct(e.ziip_utilization)}`);
  const rt = e.response_time_ms || {};
  const hasRt = rt.value !== null && rt.value !== undefined;
  const floorOnly = !hasRt && rt.low >= 0.1; // a published floor (packet trace), not a modelled time
  kpi(
    "response_time_ms",
    hasRt ? `${fmt.num(rt.value, 1)} ms` : floorOnly ? `≥ ${fmt.num(rt.low, 0)} ms` : "—",
    hasRt ? (rt.low !== null && rt.high !== null ? `95%: ${fmt.num(rt.low, 1)}–${fmt.num(rt.high, 1)} ms` : "") : floorOnly ? "lower bound only" : "not published",
  );
  const sat = e.saturation_tps;
  const lowerBound = e.saturation_kind === "lower-bound";
  const satBinding = bindingText(e.saturation_binding);
  kpi(
    "saturation_tps",
    sat === null ? "—" : `${lowerBound ? "≥ " : ""}${fmt.int(sat)}`,
    sat === null ? "" : [`TPS · ${fmt.num(sat / e.inputs.tps, 2)}× target`, satBinding ? `bound by ${satBinding}` : "", lowerBound ? "lower bound (cost is an upper bound)" : rangeText(ranges.saturation_tps, 0)].filter(Boolean).join(" · "),
  );
  const binding = bindingText(e.binding_resource);
  document.getElementById("binding").textContent = binding ? `Binding resource at ${fmt.int(inp.tps)} TPS: ${binding}.` : "";

  renderCapacity(e.capacity);
  renderDecisions(document.getElementById("decisions"), e.warnings || []);
  renderWarnings(document.getElementById("warnings"), (e.warnings || []).filter((w) => w.level !== "decision"));

  const context = { target, native: answer.native.generation };
  const cpu = answer.cpu;
  drawCpu(document.getElementById("chart-cpu"), cpu, context);
  document.getElementById("note-cpu").textContent = cpu.line && cpu.line.n
    ? `${cpu.component_label}: ${fmt.num(cpu.line.slope_ms, 3)} CP-ms per transaction + ${fmt.num(cpu.line.intercept_cps, 2)} CPs, R² ${fmt.num(cpu.line.r2, 3)}, n = ${cpu.line.n}` +
      (cpu.factor !== 1 ? ` · projected ×${fmt.num(cpu.factor, 3)} (LSPR)` : "")
    : cpu.line ? "No CPU points published: cost per transaction from published bounds." : "No CPU data published for this path.";
  drawResponse(document.getElementById("chart-response"), answer.response, context);
  const r = answer.response;
  document.getElementById("note-response").textContent = r.curve
    ? `Fitted to ${r.published.length} published response times${r.software ? `; software queue: ${r.software.servers} server${r.software.servers === 1 ? "" : "s"} × ${fmt.num(r.software.service_ms, 2)} ms` : ""}`
    : r.lower_bound
      ? "No response times published: the dashed line is the time spent on the CPs alone (service + queueing), not the response time."
      : "No response times published; only a lower bound is known.";
  drawDemand(document.getElementById("chart-demand"), answer.demand);
  document.getElementById("note-demand").textContent = answer.demand.ziip_on_gcp > 0
    ? `${fmt.num(answer.demand.ziip_on_gcp, 2)} CPs of zIIP-eligible work run on CPs`
    : "Busy engines at the target";
  renderBasis(e, cpu);
  jobs.setContext(lastInputs, answer);
}

function rangeText(range, digits) {
  if (!Array.isArray(range) || range.length !== 2 || range[0] === null || range[1] === null) return "";
  if (range[0] === range[1]) return "";
  const f = (v) => (digits === 0 ? fmt.int(v) : fmt.num(v, digits));
  return `range ${f(range[0])}–${f(range[1])}`;
}

// The engine names a binding resource either as text or as {label|name, ...}.
function bindingText(binding) {
  if (!binding) return "";
  if (typeof binding === "string") return binding;
  return binding.label || binding.name || binding.resource || "";
}

// MIPS and MSU used against installed on the sized model, per pool: CP capacity is what
// software is priced on (MSU); specialty-engine capacity is not priced.
function gaugeRow(id, label, used, installed, unit, note) {
  const row = document.createElement("div");
  row.className = "gauge-row";
  const name = Object.assign(document.createElement("label"), { htmlFor: id, textContent: label });
  const meter = Object.assign(document.createElement("meter"), { id, min: 0, max: installed, value: Math.min(used, installed), high: installed * 0.85, optimum: 0 });
  const text = Object.assign(document.createElement("span"), {
    className: "gauge-text",
    textContent: `${fmt.int(used)} of ${fmt.int(installed)} ${unit} (${fmt.pct(used / installed)})${note ? ` · ${note}` : ""}`,
  });
  row.append(name, meter, text);
  return row;
}

function renderCapacity(cap) {
  const box = document.getElementById("capacity-gauge");
  if (!cap || !cap.cp) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  document.getElementById("capacity-title").textContent =
    `Used against installed on ${cap.model}${cap.capacity_setting ? ` (setting ${cap.capacity_setting})` : ""}`;
  const rows = [
    gaugeRow("gauge-cp-mips", `${cap.cps} CP${cap.cps === 1 ? "" : "s"}`, cap.cp.mips_used, cap.cp.mips_installed, "MIPS"),
    gaugeRow("gauge-cp-msu", "CP MSU", cap.cp.msu_used, cap.cp.msu_installed, "MSU", "what software is priced on"),
  ];
  const sp = cap.specialty;
  if (sp && sp.mips_installed) {
    rows.push(gaugeRow("gauge-specialty", `${cap.specialty_engines} ${sp.engine}${cap.specialty_engines === 1 ? "" : "s"}`, sp.mips_used, sp.mips_installed, "MIPS", "not priced"));
  }
  document.getElementById("capacity-rows").replaceChildren(...rows);
}

// Decision-changing warnings sit on the main card, in the words said to a customer.
function renderDecisions(box, warnings) {
  const decisions = warnings.filter((w) => w.level === "decision");
  box.hidden = decisions.length === 0;
  const ul = document.createElement("ul");
  ul.replaceChildren(
    ...decisions.map((w) => {
      const li = document.createElement("li");
      li.dataset.code = w.code;
      const why = Object.assign(document.createElement("span"), { className: "decision-detail", textContent: ` ${w.message}` });
      li.append(Object.assign(document.createElement("strong"), { textContent: w.headline || w.code }), why);
      return li;
    }),
  );
  box.replaceChildren(Object.assign(document.createElement("h3"), { textContent: "Before you sign this" }), ul);
}

// Caveats are shown; notes (how a number was reached) wait behind a button that names them.
function renderWarnings(ul, warnings) {
  const items = warnings.map((w) => {
    const li = document.createElement("li");
    li.className = `warning-${w.level || "caveat"}`;
    li.append(Object.assign(document.createElement("b"), { textContent: w.code }), w.headline ? `${w.headline} ${w.message}` : w.message);
    return li;
  });
  ul.replaceChildren(...items);
  const shown = warnings.filter((w) => w.level !== "note").length;
  if (items.length === shown) return;
  const rest = items.slice(shown);
  rest.forEach((li) => (li.hidden = true));
  const more = document.createElement("li");
  more.className = "warnings-more";
  const button = Object.assign(document.createElement("button"), {
    type: "button",
    className: "btn btn-small",
    textContent: `Show ${rest.length} note${rest.length === 1 ? "" : "s"}: ${warnings.slice(shown).map((w) => w.code).join(", ")}`,
  });
  button.addEventListener("click", () => {
    rest.forEach((li) => (li.hidden = false));
    more.remove();
    rest[0].setAttribute("tabindex", "-1");
    rest[0].focus();
  });
  more.append(button);
  ul.append(more);
}

function renderBasis(e, cpu) {
  const box = document.getElementById("basis");
  const b = e.basis || {};
  const rows = [];
  const m = b.model;
  if (m && m.component) {
    rows.push(["Model", `${m.component}: ${fmt.num(m.slope_ms, 4)} CP-ms/tran + ${fmt.num(m.intercept_cps, 3)} CPs`]);
    rows.push(["Fit", `R² ${fmt.num(m.r2, 4)}, n = ${m.n}, ETR ${fmt.int(m.etr_min)}–${fmt.int(m.etr_max)}`]);
  }
  const p = b.projection;
  if (p) {
    rows.push(["Projection", `${p.from_machine_type}/${p.from_cps ?? "?"} CPs → ${p.to_machine_type}/${p.to_cps ?? "?"} CPs, ×${fmt.num(p.factor, 4)}`]);
    rows.push(["Ratings", p.source]);
  }
  const cpuPer = e.cpu_per_tran_ms || {};
  if (cpuPer.total !== null && cpuPer.total !== undefined) {
    rows.push(["CPU/tran", `${fmt.num(cpuPer.total, 3)} ms (95%: ${fmt.num(cpuPer.low, 3)}–${fmt.num(cpuPer.high, 3)})`]);
  }
  const sources = [...new Set(cpu.points.map((pt) => [pt.source, pt.table].filter(Boolean).join(" ")))];
  if (b.points && b.points.length) rows.push(["Points", `${b.points.length}${sources.length ? ` (${sources.join("; ")})` : ""}`]);
  if (b.statements && b.statements.length) rows.push(["Statements", `${b.statements.length} published statements`]);
  const dl = document.createElement("dl");
  for (const [k, v] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.textContent = v;
    dl.append(dt, dd);
  }
  const nodes = [dl];
  if (b.assumptions && b.assumptions.length) {
    const h = document.createElement("h4");
    h.className = "statement-kind";
    h.textContent = "Assumptions";
    const ul = document.createElement("ul");
    ul.replaceChildren(...b.assumptions.map((a) => Object.assign(document.createElement("li"), { textContent: a })));
    nodes.push(h, ul);
  }
  box.replaceChildren(...nodes);
}

async function save() {
  if (!lastInputs || resultBox.classList.contains("is-stale")) return;
  saveButton.disabled = true;
  saveStatus.textContent = "Saving…";
  const body = { ...lastInputs };
  const name = form.elements.namedItem("name").value.trim();
  if (name) body.name = name;
  try {
    const saved = await sendJSON("POST", form.dataset.estimatesUrl || "/api/v1/estimates/", body);
    clearErrors(form, { alertBox });
    const link = document.createElement("a");
    link.href = `${form.dataset.estimatePages || "/estimates/"}${saved.id}/`;
    link.textContent = `Saved as estimate #${saved.id}`;
    saveStatus.replaceChildren(link);
  } catch (err) {
    saveStatus.textContent = "";
    const fields = err instanceof ApiError && err.status === 400 ? err.fields : { non_field_errors: [err.message] };
    showErrors(form, fields, { alertBox });
  } finally {
    saveButton.disabled = !lastInputs || resultBox.classList.contains("is-stale");
  }
}

// -- wiring --------------------------------------------------------------------------------
const jobs = initJobs(document.getElementById("jobs"));

fillPaths(initial.path);
fillConfigurations(initial.configuration);
fillMachines(initial.machine || machineOfModel(initial.model));
writeInputs(initial.model && !initial.capacity_setting ? { ...initial, capacity_setting: settingOfModel(initial.model) } : initial);

pathSel.addEventListener("change", () => {
  fillConfigurations();
  fillMachines();
  if (readInputs().tps) run({ focusErrors: false });
});
configSel.addEventListener("change", () => {
  updateHint();
  if (readInputs().tps) run({ focusErrors: false });
});
// A model fixes machine, setting and CPs; changing any of them by hand leaves the model.
const picker = initModelPicker({
  input: modelInput,
  list: document.getElementById("model-list"),
  url: form.dataset.modelsUrl || "/ui/models",
  onPick(row) {
    machineSel.value = row.machine;
    fillSettings(row.setting);
    form.elements.namedItem("cps").value = row.cps;
    document.getElementById("optional-inputs").open = true;
    onInputEdited();
    if (readInputs().tps) run({ focusErrors: false });
  },
});
async function useModel(model) {
  const row = await picker.find(model);
  if (!row) return;
  modelInput.value = row.model;
  machineSel.value = row.machine;
  fillSettings(row.setting);
  form.elements.namedItem("cps").value = row.cps;
  document.getElementById("optional-inputs").open = true;
  window.scrollTo({ top: 0 });
  run({ focusErrors: false });
}
// Inputs of the answer on screen (the panel's results belong to them).
targetsPanel = initTargetsPanel(document.getElementById("targets-panel"), {
  getInputs: () => lastInputs || readInputs(),
  onUseModel: useModel,
});
function leaveModel() {
  modelInput.value = "";
}
machineSel.addEventListener("change", () => {
  leaveModel();
  fillSettings();
  if (readInputs().tps) run({ focusErrors: false });
});
settingSel.addEventListener("change", () => {
  leaveModel();
  if (readInputs().tps) run({ focusErrors: false });
});
form.elements.namedItem("cps").addEventListener("input", leaveModel);
modelInput.addEventListener("change", async () => {
  // A model typed in full (no pick from the list) fills the machine, setting and CPs too.
  const row = modelInput.value.trim() ? await picker.find(modelInput.value) : null;
  if (row && row.model !== modelInput.value) modelInput.value = row.model;
  if (row) {
    machineSel.value = row.machine;
    fillSettings(row.setting);
    form.elements.namedItem("cps").value = row.cps;
  }
});
form.addEventListener("input", (event) => {
  if (event.target.name !== "name") onInputEdited();
});
form.addEventListener("change", (event) => {
  if (event.target.name !== "name") onInputEdited();
});
form.addEventListener("submit", (event) => {
  event.preventDefault();
  run();
});
saveButton.addEventListener("click", save);

if (initial.tps) run({ focusErrors: false });
