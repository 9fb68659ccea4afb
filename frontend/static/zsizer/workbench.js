// The sizing page: valid choices only, the answer without a page reload, inline 400 errors.
import { ApiError, clearErrors, fmt, getJSON, sendJSON, showErrors } from "./api.js";
import { drawAdvice, drawCpu, drawDemand, drawResponse } from "./charts.js";
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
  "lpar_overhead", "server_share", "smt2_factor", "objective", "cics_regions",
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
  // The name without its parenthesis, which the hint below gives in full: the select shows it whole.
  pathSel.replaceChildren(...choices.paths.map((p) => option(p.slug, p.name.replace(/\s*\(.*\)\s*$/, ""))));
  if (selected && choices.paths.some((p) => p.slug === selected.toLowerCase())) pathSel.value = selected.toLowerCase();
}

function currentPath() {
  return choices.paths.find((p) => p.slug === pathSel.value);
}

function fillConfigurations(selected) {
  const path = currentPath();
  const configs = path ? path.configurations : [];
  configSel.replaceChildren(...configs.map((c) => option(c.slug, c.name)));
  const wanted = selected && configs.find((c) => c.slug === selected.toLowerCase());
  if (wanted) configSel.value = wanted.slug;
  else {
    const fitted = configs.find((c) => c.basis === "cpu-fit");
    if (fitted) configSel.value = fitted.slug;
  }
  updateHint();
}

function updateHint() {
  document.getElementById("hint-path").textContent = currentPath()?.name || "";
  const config = currentPath()?.configurations.find((c) => c.slug === configSel.value);
  if (!config) {
    configHint.textContent = "";
    return;
  }
  const etr = config.etr;
  const range = !etr ? "" : etr.low === etr.high ? ` Published at ${fmt.rate(etr.low)} TPS.` : ` Published ETR ${fmt.rate(etr.low)}–${fmt.rate(etr.high)} TPS.`;
  configHint.textContent = `${config.slug}: ${config.basis_text}${range}`;
}

function fillMachines(selected) {
  // The machine stays as chosen when the path changes; by default a current generation.
  const current = machineSel.value;
  // The name may already carry the type ("IBM z17 (9176)"): never "(9176) (9176)".
  const label = (m) => (m.name.includes(m.machine_type) ? m.name : `${m.name} (${m.machine_type})`);
  machineSel.replaceChildren(...choices.machines.map((m) => option(m.slug, label(m))));
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
  await resolveTypedModel();
  const inputs = readInputs();
  if (!inputs.tps) {
    showErrors(form, { tps: ["Enter a target rate in transactions per second."] }, { alertBox });
    status.textContent = ""; // no "Updated: 5 CPs" beside an error
    clearAnswer();
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
    // An input edited while this answer was on its way: the answer is drawn, stale (the form no
    // longer says its inputs), and cannot be saved until it is sized again.
    const stale = !sameInputs(readInputs(), inputs);
    setStale(stale);
    history.replaceState(null, "", `?${new URLSearchParams(inputs)}`);
    saveButton.disabled = stale || !saveable();
    if (!stale) saveStatus.textContent = saveable() ? "" : "This configuration publishes no CPU data: there is no sizing to save.";
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

// A configuration with no CPU data (HostBridge) cannot be sized, so there is nothing to save.
function saveable() {
  const config = currentPath()?.configurations.find((c) => c.slug === lastInputs?.configuration);
  return Boolean(lastInputs) && config?.basis !== "no-cpu";
}

function setStale(stale) {
  resultBox.classList.toggle("is-stale", stale);
  staleBanner.hidden = !stale;
  saveButton.disabled = stale || !saveable();
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
  const box = document.querySelector(`[data-kpi="${name}"]`);
  if (value && typeof value === "object") {
    // a figure from the server: the number large, its unit small
    box.replaceChildren(value.number, ...(value.unit ? [" ", el("span", { className: "kpi-unit", textContent: value.unit })] : []));
  } else box.textContent = value;
  document.querySelector(`[data-kpi-sub="${name}"]`).textContent = sub || "";
}

function render(answer) {
  const e = answer.estimate;
  const inp = e.inputs;
  const target = `${answer.target.generation}, ${answer.cpu.capacity.cps ?? "?"} CPs`;
  emptyState.hidden = true;
  resultBox.hidden = false;
  const names = answer.names || {}; // product names, never slugs
  document.getElementById("result-title").textContent =
    `${names.path || inp.path} / ${names.configuration || inp.configuration} on ${answer.target.machine_name} at ${fmt.rate(e.inputs.tps)} TPS`;
  document.getElementById("result-sub").textContent = `model ${e.model_version} · measured on ${answer.native.generation}` +
    (answer.native.lpar_cps ? ` (${answer.native.lpar_cps} CPs)` : "");

  // Every figure and warning sentence comes from the server (sizing/presentation.py), so the
  // workbench, the saved estimate, the comparison and the PDF say the same thing.
  const shown = answer.display.figures;
  const sub = (f, ...extra) => [f.note, f.spread, ...extra].filter(Boolean).join(" · ");
  const engine = e.specialty_engine || "zIIP"; // the engine's name for this generation (zAAP on old machines)
  const ceiling = Number(inp.max_utilization || 0.85);
  const given = inp.cps ? Number(inp.cps) : null;
  const overloaded = given !== null && e.gcp_utilization !== null && e.gcp_utilization > ceiling && e.cps_required > given;
  if (overloaded) {
    // What would help follows the binding resource (the server's advice): never more CPs
    // against a software limit.
    const first = (answer.advice || [])[0];
    kpi("cps_required", "Overloaded", first ? first.short : `${fmt.int(given)} CPs given`);
  } else {
    kpi("cps_required", shown.cps_required, sub(shown.cps_required, given ? `${fmt.int(given)} CPs given` : ""));
  }
  document.getElementById("kpi-cps-card").classList.toggle("kpi-bad", overloaded);
  document.querySelector('[data-kpi-label="ziips_required"]').textContent = `${engine}s required`;
  // the demand chart's title names this generation's engine (zAAP on z10..zEC12)
  for (const el of document.querySelectorAll("[data-engine-term]")) el.hidden = el.dataset.engineTerm !== engine;
  // the form's own words too: "zAAPs given", "Mix of CPs and zAAPs" on z10..zEC12
  for (const el of document.querySelectorAll(".engine-name")) el.textContent = engine;
  for (const el of document.querySelectorAll("[data-engine-text]")) el.textContent = el.dataset.engineText.replace("{engine}", engine);
  document.getElementById("chart-demand").setAttribute("aria-label", `Busy engines on CPs and ${engine}s`);
  kpi("ziips_required", shown.ziips_required, sub(shown.ziips_required)); // the cap beside the CPs: in the note (presentation.specialty_cap_text)
  kpi("mips", shown.mips, shown.mips.note);
  kpi("gcp_utilization", shown.gcp_utilization, ["of the CPs", shown.gcp_utilization.spread, shown.gcp_utilization.note].filter(Boolean).join(" · "));
  kpi("response_time_ms", shown.response_time_ms, shown.response_time_ms.spread || shown.response_time_ms.note);
  const sat = shown.saturation_tps;
  kpi("saturation_tps", sat, [sat.spread, e.saturation_tps ? `${fmt.num(e.saturation_tps / e.inputs.tps, 2)}× target` : "", sat.note].filter(Boolean).join(" · "));
  const binding = bindingText(e.binding_resource);
  document.getElementById("binding").textContent = binding ? `Binding resource at ${fmt.rate(inp.tps)} TPS: ${binding}.` : "";

  renderCapacity(e.capacity);
  renderWarnings(answer.display.warnings);
  drawAdvice(document.getElementById("advice"), answer.advice);
  // No CPU data (HostBridge): no number to compare on other machines or to solve heavily.
  const noCpu = answer.demand.total === null || answer.demand.total === undefined;
  for (const id of ["targets-panel", "jobs"]) {
    const panel = document.getElementById(id);
    if (panel) panel.hidden = noCpu;
  }

  const context = { target, native: answer.native.generation };
  const cpu = answer.cpu;
  drawCpu(document.getElementById("chart-cpu"), cpu, context);
  document.getElementById("note-cpu").textContent = cpu.line && cpu.line.n
    ? `${cpu.component_label}: fitted to ${cpu.line.n} published points, R² ${fmt.num(cpu.line.r2, 3)}` +
      (cpu.factor !== 1 ? ` · projected ×${fmt.num(cpu.factor, 3)} (LSPR)` : "") +
      ` · ${shown.cpu_per_tran_ms.value} CPU per transaction on the target`
    : cpu.line ? "No CPU points published: cost per transaction from published bounds." : "No CPU data published for this path.";
  drawResponse(document.getElementById("chart-response"), answer.response, context);
  const r = answer.response;
  document.getElementById("note-response").textContent = r.curve
    ? `Fitted to ${r.published.length} published response times${r.software ? `; software queue: ${r.software.servers} server${r.software.servers === 1 ? "" : "s"} × ${fmt.num(r.software.service_ms, 2)} ms` : ""}`
    : r.lower_bound
      ? "No response times published: the dashed line is the time at the CPs and specialty engines (service + queueing), a lower bound, not the response time; the marker is the answer's bound at the target."
      : "No response times published; only a lower bound is known.";
  drawDemand(document.getElementById("chart-demand"), answer.demand);
  document.getElementById("note-demand").textContent = answer.demand.ziip_on_gcp > 0
    ? `${fmt.num(answer.demand.ziip_on_gcp, 2)} CPs of ${engine}-eligible work run on CPs`
    : "Busy engines at the target";
  renderBasis(answer.display, e, cpu);
  jobs.setContext(lastInputs, answer);
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
  if (cap.icf) {
    // The coupling facility on its own ICF engines: outside the LPAR, never in the CPs sized.
    const row = Object.assign(document.createElement("div"), { className: "gauge-row", id: "gauge-icf" });
    row.append(
      Object.assign(document.createElement("span"), { textContent: "ICF (coupling facility)" }),
      Object.assign(document.createElement("span"), {
        className: "gauge-text",
        textContent: `${fmt.num(cap.icf.busy, 3)} busy engines · outside the LPAR, not in the CPs sized`,
      }),
    );
    rows.push(row);
  }
  document.getElementById("capacity-rows").replaceChildren(...rows);
}

// Warnings in the server's sentences, with the engine's reasoning folded under "Details": the
// same markup as the saved-estimate page (templates/sizing/_warnings.html).
function warningItem(w, className) {
  const li = el("li", { className });
  li.dataset.level = w.level;
  li.dataset.code = w.code;
  const details = el("details", { className: "warning-details" }, [el("summary", { textContent: "Details" }), el("p", { textContent: w.details })]);
  li.append(el(w.level === "decision" ? "strong" : "span", { className: "warning-sentence", textContent: w.sentence }), " ", details);
  return li;
}

function renderWarnings(warnings) {
  const decisions = warnings.filter((w) => w.level === "decision");
  const box = document.getElementById("decisions");
  box.hidden = decisions.length === 0;
  box.replaceChildren(el("h3", { textContent: "Before you sign this" }), el("ul", {}, decisions.map((w) => warningItem(w, ""))));
  const caveats = warnings.filter((w) => w.level === "caveat").map((w) => warningItem(w, "warning-caveat"));
  const notes = warnings.filter((w) => w.level === "note");
  const items = [...caveats];
  if (notes.length) {
    const summary = el("summary", { textContent: `How the numbers were reached (${notes.length} note${notes.length === 1 ? "" : "s"})` });
    items.push(el("li", { className: "warnings-notes" }, [el("details", {}, [summary, el("ul", {}, notes.map((w) => warningItem(w, "warning-note")))])]));
  }
  document.getElementById("warnings").replaceChildren(...items);
}

function el(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function renderBasis(display, e, cpu) {
  const box = document.getElementById("basis");
  const b = e.basis || {};
  const rows = [...display.basis];
  const sources = [...new Set(cpu.points.map((pt) => [pt.source, pt.table].filter(Boolean).join(" ")))];
  if (b.points && b.points.length) rows.push(["Points", `${b.points.length}${sources.length ? ` (${sources.join("; ")})` : ""}`]);
  const dl = document.createElement("dl");
  for (const [k, v] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.textContent = v;
    dl.append(dt, dd);
  }
  const nodes = [dl];
  // the assumptions in the customer's words (sizing.presentation.assumptions), as the saved page and the PDF say them
  const assumptions = display.assumptions || [];
  if (assumptions.length) {
    const h = document.createElement("h4");
    h.className = "statement-kind";
    h.textContent = "Assumptions";
    const ul = document.createElement("ul");
    ul.replaceChildren(...assumptions.map((a) => Object.assign(document.createElement("li"), { textContent: a })));
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
    form.elements.namedItem("name").value = ""; // the next estimate gets its own name
  } catch (err) {
    saveStatus.textContent = "";
    const fields = err instanceof ApiError && err.status === 400 ? err.fields : { non_field_errors: [err.message] };
    showErrors(form, fields, { alertBox });
  } finally {
    saveButton.disabled = !saveable() || resultBox.classList.contains("is-stale");
  }
}

// -- wiring --------------------------------------------------------------------------------
// A workload by its product and configuration names (as the selects show them), never slugs.
function workloadName(path, configuration) {
  const p = choices.paths.find((x) => x.slug === path);
  const c = p?.configurations.find((x) => x.slug === configuration);
  return `${p ? p.name.replace(/\s*\(.*\)\s*$/, "") : path} · ${c ? c.name : configuration}`;
}
const jobs = initJobs(document.getElementById("jobs"), { currentInputs: readInputs, workloadName });

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
// A model typed (no pick from the list: "3931-510", "z16 510") fills the machine, setting and
// CPs too; Size waits for it, so the server never sees the words typed.
async function resolveTypedModel() {
  const typed = modelInput.value.trim();
  if (!typed) return;
  const row = await picker.find(typed);
  if (!row) return;
  if (row.model !== modelInput.value) modelInput.value = row.model;
  machineSel.value = row.machine;
  fillSettings(row.setting);
  form.elements.namedItem("cps").value = row.cps;
}
modelInput.addEventListener("change", resolveTypedModel);
form.addEventListener("input", (event) => {
  if (event.target.name !== "name") onInputEdited();
});
form.addEventListener("change", (event) => {
  if (event.target.name !== "name") onInputEdited();
});
// The example's banner goes once the engineer sizes their own question, or on its close button.
const exampleNote = document.getElementById("example-note");
function dropExample() {
  exampleNote?.remove();
}
document.getElementById("example-close")?.addEventListener("click", dropExample);
form.addEventListener("submit", (event) => {
  event.preventDefault();
  dropExample();
  run();
});
saveButton.addEventListener("click", save);

// A reopened job (?job=<id>): the form above holds the inputs it was started with; the panel
// shows its kind, its own params and its result.  Without a target rate (a closed network) there
// is no answer to show the panel under, so it stands on its own until one is sized.
const reopenedJob = JSON.parse(document.getElementById("workbench-job")?.textContent || "null");
if (reopenedJob) {
  const panel = document.getElementById("jobs");
  if (!initial.tps && panel) emptyState.after(panel);
  jobs.reopen(reopenedJob);
}
if (initial.tps) run({ focusErrors: false });
