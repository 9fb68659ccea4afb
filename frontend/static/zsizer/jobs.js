// Heavy solves from the workbench: start a job with the current inputs, follow its progress,
// draw its result and link its CSV.  The jobs API does the work (POST /api/v1/jobs/, poll GET
// <job url>, DELETE to cancel).
import { ApiError, clearErrors, fmt, getJSON, sendJSON, showErrors } from "./api.js";
import { COLORS, addLines, baseLayout, draw, hline, rateLabels, vline } from "./charts.js";

const POLL_MS = 600;
const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);
// A phone's screen, where a batch's bars lie down (renderBatch).
const PHONE = window.matchMedia("(max-width: 599px)");
const HINTS = {
  curve: "Utilisation and response time from zero to saturation, one line per CP count.",
  closed: "A fixed population of clients with a think time (exact MVA): throughput and response time per population.",
  montecarlo: "Samples the cost model's uncertainty: the distribution of CPs required at the target rate.",
  optimize: "Every CP and zIIP count that carries the target: the cheapest mix for the costs given.",
  mix: "Several workloads on one LPAR of the target machine: their demand added up.",
  batch: "One estimate per CSV row (header: path,configuration,machine,tps and any optional input).",
};

const list = (text) =>
  text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((v) => (/^-?\d+$/.test(v) ? Number(v) : v));

const number = (text) => {
  const t = text.trim();
  return t === "" ? undefined : /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t;
};

// The API's 400 for a job nests the params' errors ({params: {cps_list: [..]}}, list items by
// index, costs by engine); flatten them onto the panel's fields (cps_list, cost_gcp, workloads).
function flattenErrors(body) {
  const out = {};
  const describe = (v) =>
    Object.entries(v)
      .map(([k, m]) => `${k}: ${[].concat(m).join(" ")}`)
      .join("; ");
  const visit = (value, key) => {
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
      (out[key] ??= []).push(...value);
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => {
        if (v && typeof v === "object" && Object.keys(v).length) (out[key] ??= []).push(`item ${i + 1}: ${describe(v)}`);
      });
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        visit(v, key === "params" ? k : key === "costs" ? `cost_${k}` : key);
      }
    } else if (value !== null && value !== undefined) {
      (out[key] ??= []).push(String(value));
    }
  };
  for (const [k, v] of Object.entries(body || {})) visit(v, k);
  return out;
}

// options.currentInputs(): the workbench's inputs as typed now (the mix builder adds those,
// not the answer's, which may be older than what was typed); options.workloadName(path,
// configuration): the product's words for a workload of the mix.
export function initJobs(section, options = {}) {
  if (!section) return { setContext() {}, reopen() {} };
  const form = section.querySelector("#job-form");
  const alertBox = section.querySelector("#job-errors");
  const startButton = section.querySelector("#job-start");
  const cancelButton = section.querySelector("#job-cancel");
  const state = section.querySelector("#job-state");
  const bar = section.querySelector("#job-progress");
  const resultBox = section.querySelector("#job-result");
  const mixList = section.querySelector("#mix-list");
  const hint = section.querySelector("#job-kind-hint");
  const jobsUrl = section.dataset.jobsUrl;
  let context = null; // {inputs, answer} of the estimate on screen
  let job = null;
  let timer = null;
  const workloads = [];

  const kind = () => form.elements.namedItem("kind").value;
  const errorOptions = { prefix: "j-", errorPrefix: "jerr-", alertBox };

  function showKind() {
    section.querySelectorAll(".job-params").forEach((el) => {
      el.hidden = el.dataset.kind !== kind();
    });
    hint.textContent = HINTS[kind()] || "";
  }

  function renderMix() {
    mixList.replaceChildren(
      ...workloads.map((w, i) => {
        const li = document.createElement("li");
        const name = options.workloadName ? options.workloadName(w.path, w.configuration) : `${w.path} / ${w.configuration}`;
        li.textContent = `${name} at ${fmt.rate(w.tps)} TPS `;
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "btn btn-small";
        remove.textContent = "Remove";
        remove.setAttribute("aria-label", `Remove ${name}`);
        remove.addEventListener("click", () => {
          workloads.splice(i, 1);
          renderMix();
        });
        li.append(remove);
        return li;
      }),
    );
    if (!workloads.length) mixList.replaceChildren(Object.assign(document.createElement("li"), { className: "muted", textContent: "none yet" }));
  }

  function defaults() {
    const e = context.answer.estimate;
    const n = e.cps || 1;
    const cpsList = form.elements.namedItem("cps_list");
    if (!cpsList.dataset.touched) cpsList.value = [n - 1, n, n + 1, n + 2].filter((v) => v >= 1).join(", ");
    const cps = form.elements.namedItem("cps");
    if (!cps.dataset.touched) cps.value = n;
    const csv = form.elements.namedItem("csv");
    if (!csv.dataset.touched) {
      const i = e.inputs;
      csv.value = `path,configuration,machine,tps\n${i.path},${i.configuration},${i.machine},${i.tps}\n${i.path},${i.configuration},${i.machine},${i.tps * 1.5}\n`;
    }
  }

  // The jobs API refuses unknown parameters: each kind gets the estimate inputs it knows.
  const TARGET = ["path", "configuration", "machine", "max_utilization", "payload_bytes", "response_time_sla_ms"];
  const SHARED = {
    curve: [...TARGET, "ziips", "tps"],
    closed: [...TARGET, "ziips"],
    montecarlo: [...TARGET, "tps", "cps", "ziips"],
    optimize: [...TARGET, "tps"],
  };

  function pick(names) {
    const inputs = context.answer.estimate.inputs;
    return Object.fromEntries(names.filter((n) => inputs[n] !== undefined && inputs[n] !== null).map((n) => [n, inputs[n]]));
  }

  function params() {
    const f = form.elements;
    const k = kind();
    const base = pick(SHARED[k] || []);
    switch (k) {
      case "curve":
        return { ...base, cps_list: list(f.namedItem("cps_list").value) };
      case "closed":
        return { ...base, clients: list(f.namedItem("clients").value), think_time_s: number(f.namedItem("think_time_s").value), cps: number(f.namedItem("cps").value) };
      case "montecarlo": {
        const p = { ...base, samples: number(f.namedItem("samples").value) };
        const seed = number(f.namedItem("seed").value);
        if (seed !== undefined) p.seed = seed;
        return p;
      }
      case "optimize":
        return { ...base, costs: { gcp: number(f.namedItem("cost_gcp").value), ziip: number(f.namedItem("cost_ziip").value) } };
      case "mix": {
        const here = pick(["path", "configuration", "tps", "payload_bytes", "response_time_sla_ms"]);
        return { ...pick(["machine", "max_utilization"]), workloads: workloads.length ? workloads : [here] };
      }
      case "batch":
        return { csv: f.namedItem("csv").value };
      default:
        return base;
    }
  }

  function setProgress(j) {
    bar.hidden = false;
    const pct = j.status === "succeeded" ? 100 : j.progress || 0;
    bar.querySelector("span").style.width = `${pct}%`;
    bar.setAttribute("aria-valuenow", String(pct));
    state.dataset.status = j.status;
    state.dataset.jobUrl = j.url;
    const label = { queued: "Queued", running: "Running", succeeded: "Finished", failed: "Failed", cancelled: "Cancelled" }[j.status] || j.status;
    state.textContent = `Job #${j.id} (${j.kind}): ${label}${j.status === "running" ? `, ${pct}%` : ""}${j.error ? ` — ${j.error}` : ""}`;
  }

  function stop() {
    if (timer) clearTimeout(timer);
    timer = null;
  }

  async function poll() {
    try {
      job = await getJSON(job.url);
    } catch (err) {
      state.textContent = `Could not follow the job: ${err.message}`;
      timer = setTimeout(poll, POLL_MS * 3);
      return;
    }
    setProgress(job);
    if (TERMINAL.has(job.status)) {
      stop();
      startButton.disabled = false;
      cancelButton.hidden = true;
      if (job.status === "succeeded") renderResult(job);
      return;
    }
    timer = setTimeout(poll, POLL_MS);
  }

  async function start(event) {
    event.preventDefault();
    if (!context) {
      // A job runs on the answer above (a reopened closed network has none until a rate is sized).
      showErrors(form, { non_field_errors: ["Type a target rate above and press Size first: a job runs with the answer's inputs."] }, errorOptions);
      return;
    }
    stop();
    clearErrors(form, { alertBox });
    resultBox.hidden = true;
    startButton.disabled = true;
    try {
      job = await sendJSON("POST", jobsUrl, { kind: kind(), params: params() });
    } catch (err) {
      startButton.disabled = false;
      const fields = err instanceof ApiError && err.status === 400 ? flattenErrors(err.fields) : { non_field_errors: [err.message] };
      const first = showErrors(form, fields, errorOptions);
      if (first) first.focus();
      return;
    }
    cancelButton.hidden = false;
    setProgress(job);
    timer = setTimeout(poll, POLL_MS);
  }

  async function cancel() {
    if (!job) return;
    try {
      await sendJSON("DELETE", job.url);
    } catch (err) {
      state.textContent = err.message;
    }
    stop();
    poll();
  }

  const localUrl = (url) => (url ? new URL(url, window.location.href).pathname : null);
  const csvUrl = (j) => localUrl(j.result_csv_url);

  // The result table as the job's PDF prints it (display.table: headers in words with units,
  // cells formatted by sizing.presentation; a batch's scenarios as presentation.batch_table says
  // them). The CSV and XLSX downloads keep the machine-readable columns.
  function renderTable(shown) {
    const holder = section.querySelector("#job-table");
    if (!shown || !shown.columns) {
      holder.replaceChildren();
      return;
    }
    const t = document.createElement("table");
    t.className = "table table-compact";
    const head = t.createTHead().insertRow();
    shown.columns.forEach((c, i) => {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = c;
      if (shown.numeric[i]) th.className = "num";
      head.append(th);
    });
    const body = t.createTBody();
    shown.rows.forEach((row) => {
      const tr = body.insertRow();
      row.forEach((v, i) => {
        const td = tr.insertCell();
        td.textContent = v;
        if (shown.numeric[i]) td.className = "num";
        // a word never breaks inside itself ("3931-705", "8,000"), as in the PDF: text wraps between words
        if (!/\s/.test(v)) td.classList.add("word");
      });
    });
    // a table cut short says so under it (presentation.rows_shown: "The first 500 of 1,234 rows; all are in the CSV.")
    const note = Object.assign(document.createElement("p"), { className: "small muted job-table-note", textContent: shown.note || "" });
    holder.replaceChildren(t, ...(shown.note ? [note] : []));
  }

  // A batch's chart lies down on a phone (renderBatch): drawn again when the screen turns narrow or wide.
  let lastShown = null;
  PHONE.addEventListener("change", () => {
    if (lastShown && (lastShown.result?.kind || lastShown.kind) === "batch" && !resultBox.hidden) renderResult(lastShown);
  });

  function renderResult(j) {
    lastShown = j;
    const r = j.result || {};
    resultBox.hidden = false;
    const csv = section.querySelector("#job-csv");
    csv.hidden = !csvUrl(j);
    if (csvUrl(j)) csv.href = csvUrl(j);
    const xlsx = section.querySelector("#job-xlsx");
    xlsx.hidden = !localUrl(j.result_xlsx_url);
    if (!xlsx.hidden) xlsx.href = localUrl(j.result_xlsx_url);
    const pdf = section.querySelector("#job-pdf");
    pdf.href = `${new URL(j.url, window.location.href).pathname}report.pdf`;
    const warnings = section.querySelector("#job-warnings");
    warnings.replaceChildren(
      ...((j.display && j.display.warnings) || []).map((w) => {
        const li = document.createElement("li");
        // the sentence the job's PDF says (sizing.presentation.job_warnings), its reasoning on hover;
        // codes stay in the API
        li.textContent = w.sentence;
        if (w.details) li.title = w.details;
        li.dataset.code = w.code;
        li.dataset.level = w.level;
        return li;
      }),
    );
    renderTable(j.display && j.display.table);
    const a = section.querySelector("#job-chart-a");
    const b = section.querySelector("#job-chart-b");
    [a, b].forEach((el) => {
      el.hidden = false;
      el.style.height = ""; // a batch on a phone sets its own (one row of bars per scenario)
      if (window.Plotly) window.Plotly.purge(el);
    });
    const summary = section.querySelector("#job-summary");
    const drawn = (RENDERERS[r.kind || j.kind] || renderGeneric)(r, a, b, j, options);
    summary.textContent = drawn.summary || "";
    if (!drawn.a) a.hidden = true;
    if (!drawn.b) b.hidden = true;
    a.parentElement.classList.toggle("single", !(drawn.a && drawn.b));
    if (window.Plotly) [a, b].filter((el) => !el.hidden).forEach((el) => window.Plotly.Plots.resize(el));
  }

  // A heavy report (a large batch) answers 202 with a progress URL: follow it, then download.
  section.querySelector("#job-pdf").addEventListener("click", async (event) => {
    event.preventDefault();
    const link = event.currentTarget;
    const note = section.querySelector("#job-pdf-status");
    note.textContent = "Preparing the PDF…";
    try {
      let response = await fetch(link.href, { credentials: "same-origin", headers: { Accept: "application/pdf, application/json" } });
      if (response.status === 202) {
        let state = await response.json();
        while (state.status === "queued" || state.status === "running") {
          note.textContent = "The report is being built on a worker…";
          await new Promise((resolve) => setTimeout(resolve, 1000));
          state = await getJSON(state.url);
        }
        if (state.status !== "succeeded") throw new Error(state.error || `the report ${state.status}`);
        response = await fetch(state.pdf_url, { credentials: "same-origin", headers: { Accept: "application/pdf" } });
      }
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const url = URL.createObjectURL(await response.blob());
      const a = Object.assign(document.createElement("a"), { href: url, download: `zsizer-job-${job ? job.id : "report"}.pdf` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      note.textContent = "";
    } catch (err) {
      note.textContent = `The PDF could not be made: ${err.message}`;
    }
  });
  form.addEventListener("submit", start);
  cancelButton.addEventListener("click", cancel);
  form.querySelectorAll('input[name="kind"]').forEach((r) => r.addEventListener("change", showKind));
  form.querySelectorAll("input, textarea").forEach((el) => el.addEventListener("input", () => (el.dataset.touched = "1")));
  section.querySelector("#mix-add").addEventListener("click", () => {
    // What is typed above now: the answer on screen may belong to older inputs.
    const i = options.currentInputs ? options.currentInputs() : context?.answer.estimate.inputs;
    if (!i || !i.path || !i.configuration || i.tps === undefined) {
      showErrors(form, { workloads: ["Choose a path and configuration and type a target rate above first."] }, errorOptions);
      return;
    }
    const bytes = i.payload_bytes !== undefined && i.payload_bytes !== "" ? number(String(i.payload_bytes)) : undefined;
    workloads.push({ path: i.path, configuration: i.configuration, tps: number(String(i.tps)), ...(bytes ? { payload_bytes: bytes } : {}) });
    renderMix();
  });
  window.addEventListener("beforeunload", stop);
  showKind();
  renderMix();

  // A reopened job: its kind, its own params in the panel's fields, and its result.
  function reopen(j) {
    const radio = form.querySelector(`input[name="kind"][value="${j.kind}"]`);
    if (radio) radio.checked = true;
    showKind();
    const p = j.params || {};
    const set = (name, value) => {
      if (value === undefined || value === null) return;
      const el = form.elements.namedItem(name);
      el.value = Array.isArray(value) ? value.join(", ") : String(value);
      el.dataset.touched = "1"; // the answer's defaults never replace the job's own
    };
    if (j.kind === "curve") set("cps_list", p.cps_list);
    if (j.kind === "closed") {
      set("clients", p.clients);
      set("think_time_s", p.think_time_s);
      set("cps", p.cps);
    }
    if (j.kind === "montecarlo") {
      set("samples", p.samples);
      set("seed", p.seed);
    }
    if (j.kind === "optimize") {
      set("cost_gcp", p.costs?.gcp);
      set("cost_ziip", p.costs?.ziip);
    }
    if (j.kind === "mix") {
      workloads.splice(0, workloads.length, ...(p.workloads || []).map((w) => ({ ...w })));
      renderMix();
    }
    if (j.kind === "batch") set("csv", p.csv);
    stop();
    job = { id: j.id, url: j.url, kind: j.kind, status: "queued" };
    state.textContent = `Job #${j.id}: opening…`;
    poll();
  }

  return {
    setContext(inputs, answer) {
      context = { inputs, answer };
      defaults();
    },
    reopen,
  };
}

// -- result charts, one renderer per kind ------------------------------------------------------

function seriesColor(i) {
  return COLORS.series[i % COLORS.series.length];
}

/** "1 CP", "4 CPs": a series' CP count as the job's PDF names it (presentation.plural). */
function cpsWord(n) {
  return `${n} CP${n === 1 ? "" : "s"}`;
}

function renderCurve(r, a, b) {
  const hasRt = r.response_time_data;
  const rtData = [];
  const utilData = [];
  const layoutRt = baseLayout("Transactions per second", hasRt ? "Response time, ms" : "Time on CPs (lower bound), ms");
  const layoutU = baseLayout("Transactions per second", "GCP utilisation");
  layoutU.yaxis.tickformat = ".0%";
  const ys = [];
  const knees = [];
  (r.series || []).forEach((s, i) => {
    const y = hasRt ? s.response_time_ms : s.response_time_lower_bound_ms;
    rtData.push({ x: s.tps, y, mode: "lines", name: cpsWord(s.cps), line: { color: seriesColor(i), width: 2 }, customdata: rateLabels(s.tps), hovertemplate: `%{customdata} TPS → %{y:.1f} ms<extra>${cpsWord(s.cps)}</extra>` });
    utilData.push({ x: s.tps, y: s.gcp_utilization, mode: "lines", name: cpsWord(s.cps), line: { color: seriesColor(i), width: 2 }, customdata: rateLabels(s.tps), hovertemplate: `%{customdata} TPS → %{y:.0%}<extra>${cpsWord(s.cps)}</extra>` });
    if (s.knee_tps) {
      // The knee is where the (lower-bound) response time doubles its low-load value.
      const ky = y[0] !== null && y[0] !== undefined ? 2 * y[0] : null;
      if (ky !== null) {
        knees.push({ x: [s.knee_tps], y: [ky], mode: "markers", showlegend: i === 0, name: "Knee", marker: { symbol: "circle-open", size: 11, color: COLORS.knee, line: { width: 2.2 } }, hovertemplate: `knee ${r.saturation_kind === "lower-bound" ? "\u2265 " : ""}${fmt.rate(s.knee_tps)} TPS<extra>${cpsWord(s.cps)}</extra>` });
        ys.push(ky * 2.5);
      }
    }
  });
  if (r.max_utilization) addLines(layoutU, [hline(r.max_utilization, COLORS.ceiling, "dot", `${Math.round(r.max_utilization * 100)}% ceiling`, { position: "left" })]);
  const at = (r.series || [])[0]?.at_tps?.tps;
  if (at) {
    addLines(layoutRt, [vline(at, COLORS.target, "dot", "target")]);
    addLines(layoutU, [vline(at, COLORS.target, "dot", "target")]);
  }
  rtData.push(...knees);
  if (ys.length) layoutRt.yaxis.range = [0, Math.max(...ys)];
  layoutU.yaxis.range = [0, 1.05];
  draw(a, rtData, layoutRt);
  draw(b, utilData, layoutU);
  // A bounds-only configuration (saturation_kind "lower-bound", the reference estimate's): the
  // cost is a published upper bound, so each knee and saturation is a floor, as the PDF says it
  // (presentation.bound_rate).
  const floor = r.saturation_kind === "lower-bound" ? "\u2265 " : "";
  const text = (r.series || []).map((s) => `${cpsWord(s.cps)} ${s.knee_tps ? floor + fmt.rate(s.knee_tps) : "—"} / ${floor}${fmt.rate(s.saturation_tps)}`);
  const bounds = floor ? " (lower bounds: the cost per transaction is a published upper bound)" : "";
  return { a: true, b: true, summary: `Knee / saturation, TPS${bounds}: ${text.join(" · ")}` };
}

function renderClosed(r, a, b) {
  const c = r.curve || {};
  const hasRt = r.response_time_data;
  const la = baseLayout("Clients", "Throughput, TPS");
  const lb = baseLayout("Clients", hasRt ? "Response time, ms" : "Time at the queues (lower bound), ms");
  if (r.knee_clients) {
    addLines(la, [vline(r.knee_clients, COLORS.knee, "dash", `knee ${fmt.int(r.knee_clients)} clients`)]);
    addLines(lb, [vline(r.knee_clients, COLORS.knee, "dash", null)]);
  }
  if (r.max_throughput_tps) addLines(la, [hline(r.max_throughput_tps, COLORS.capacity, "dash", `max ${fmt.rate(r.max_throughput_tps)} TPS`, { position: "left" })]);
  draw(a, [{ x: c.clients, y: c.throughput_tps, mode: "lines", name: "Throughput", line: { color: COLORS.line, width: 2.2 }, hovertemplate: "%{x:,} clients → %{y:,.0f} TPS<extra></extra>" }], la);
  draw(b, [{ x: c.clients, y: hasRt ? c.response_time_ms : c.response_time_lower_bound_ms, mode: "lines", name: "Response", line: { color: COLORS.target, width: 2.2 }, hovertemplate: "%{x:,} clients → %{y:.1f} ms<extra></extra>" }], lb);
  const goal = r.response_time_sla_ms !== null && r.response_time_sla_ms !== undefined && r.max_clients_within_sla !== null && r.max_clients_within_sla !== undefined
    ? ` · at most ${fmt.int(r.max_clients_within_sla)} clients within the ${fmt.rate(r.response_time_sla_ms)} ms goal` : "";
  return { a: true, b: true, summary: `${r.cps} CPs, ${r.ziips || 0} ${r.specialty_engine || "zIIP"}s, think time ${r.think_time_s} s · bottleneck: ${r.bottleneck || "—"}${goal}` };
}

function renderMontecarlo(r, a) {
  const h = (r.cps_required && r.cps_required.histogram) || [];
  const layout = baseLayout("CPs required", "Share of samples");
  layout.yaxis.tickformat = ".0%";
  layout.xaxis.dtick = 1;
  layout.showlegend = false;
  // The whole distribution, every bin the CSV has: the axis runs from the fewest CPs any sample
  // required to the most (a tail of a few samples is a short bar, not a bar cut off).
  if (h.length) layout.xaxis.range = [h[0].cps - 0.6, h[h.length - 1].cps + 0.6];
  draw(a, [{ type: "bar", x: h.map((v) => v.cps), y: h.map((v) => v.share), marker: { color: h.map((v) => (v.cps === r.cps_required.central ? COLORS.target : COLORS.line)) }, hovertemplate: "%{x} CPs: %{y:.1%}<extra></extra>" }], layout);
  // in words, as the PDF says them: shares of the samples, the goal by its figure
  const parts = [`${fmt.int(r.samples)} samples`, ...(h.length ? [`${fmt.int(h[0].cps)} to ${fmt.int(h[h.length - 1].cps)} CPs over all of them`] : []), `${fmt.pct(r.p_within_ceiling)} of the samples within the ${Math.round((r.max_utilization || 0) * 100)}% ceiling at ${r.evaluated_at_cps} CPs`];
  if (r.p_meets_sla !== null && r.p_meets_sla !== undefined) parts.push(`${fmt.pct(r.p_meets_sla)} meet the ${fmt.rate(r.response_time_sla_ms)} ms goal`);
  return { a: true, b: false, summary: parts.join(" · ") };
}

function renderOptimize(r, a) {
  const front = r.frontier || [];
  const layout = baseLayout("", "Cost");
  layout.showlegend = false;
  layout.xaxis = { ...layout.xaxis, type: "category", title: { text: `CPs + ${r.specialty_engine || "zIIP"}s` } };
  draw(a, [{ type: "bar", x: front.map((m) => `${m.cps} + ${m.ziips}`), y: front.map((m) => m.cost), marker: { color: front.map((m) => (r.best && m.cps === r.best.cps && m.ziips === r.best.ziips ? COLORS.target : COLORS.line)) }, hovertemplate: "%{x}: cost %{y:.2f}<extra></extra>" }], layout);
  const best = r.best ? `Cheapest: ${r.best.cps} CPs + ${r.best.ziips} ${r.specialty_engine || "zIIP"}s, cost ${fmt.num(r.best.cost, 2)}` : "No mix carries the target.";
  return { a: front.length > 0, b: false, summary: `${best} · ${r.feasible} of ${r.evaluated} mixes feasible` };
}

function renderMix(r, a, _b, j, options = {}) {
  const rows = r.workloads || [];
  // each workload by its product's words (options.workloadName), the engine by its generation's name
  const named = (w) => (options.workloadName ? options.workloadName(w.path, w.configuration) : w.configuration);
  const eng = r.specialty_engine || "zIIP";
  const x = rows.map((w) => `${named(w)} · ${fmt.rate(w.tps)} TPS`);
  const layout = baseLayout("", "Busy engines", { barmode: "stack" });
  layout.xaxis = { ...layout.xaxis, type: "category", title: { text: "" } };
  layout.legend.traceorder = "normal";
  const data = [
    { type: "bar", x, y: rows.map((w) => w.gcp_busy), name: "on CPs", marker: { color: COLORS.gcp }, hovertemplate: "%{y:.2f} busy CPs<extra>%{x}</extra>" },
    { type: "bar", x, y: rows.map((w) => w.ziip_busy), name: `on ${eng}s`, marker: { color: COLORS.ziip }, hovertemplate: `%{y:.2f} busy ${eng}s<extra>%{x}</extra>` },
  ];
  draw(a, data, layout);
  const c = r.combined || {};
  const parts = [`${r.cps} CPs${r.cps_sized ? " (sized)" : ""}${r.ziips ? ` + ${r.ziips} ${eng}s` : `, no ${eng}s`}`, `CPs ${fmt.pct(c.gcp_utilization)} busy`, `${fmt.int(c.mips)} MIPS`];
  // The server's sentence (sizing.presentation.mix_headroom), word for word the PDF's.
  if (j?.display?.headroom) parts.push(j.display.headroom);
  return { a: rows.length > 0, b: false, summary: parts.join(" · ") };
}

// A batch: its summary sentence (presentation.batch_summary), and the CPs each scenario requires
// with the PDF's axis titles and each row's label (presentation.batch_chart: "3. Peak (does not
// fit)"), both from display, word for word the PDF's. On a phone the bars lie down, each label
// on one line beside its bar, so that no label is cut off at the foot of the chart (a batch of
// more than 60 rows keeps them upright with its labels cut short).
function renderBatch(r, a, _b, j) {
  const shown = j?.display?.chart;
  const summary = j?.display?.summary || "";
  if (!shown || !shown.labels.length) return { a: false, b: false, summary };
  a.setAttribute("aria-label", shown.caption);
  // lying bars take a line each: a long batch keeps them upright, its labels cut short (whole on hover)
  const narrow = PHONE.matches && shown.labels.length <= 60;
  const layout = baseLayout(narrow ? shown.y_title : shown.x_title, narrow ? shown.x_title : shown.y_title);
  layout.showlegend = false;
  const bar = { type: "bar", marker: { color: COLORS.line }, hovertemplate: `%{${narrow ? "y" : "x"}}: %{${narrow ? "x" : "y"}:,} CPs<extra></extra>` };
  if (narrow) {
    layout.yaxis = { ...layout.yaxis, type: "category", autorange: "reversed", automargin: true, tickfont: { size: 11 } };
    layout.xaxis = { ...layout.xaxis, rangemode: "tozero" };
    a.style.height = `${Math.max(260, 90 + 26 * shown.labels.length)}px`;
    draw(a, [{ ...bar, orientation: "h", y: shown.labels, x: shown.values }], layout);
  } else {
    layout.xaxis = { ...layout.xaxis, type: "category", automargin: true };
    if (PHONE.matches) Object.assign(layout.xaxis, { tickvals: shown.labels, ticktext: shown.labels.map((l) => (l.length > 12 ? `${l.slice(0, 11)}…` : l)) });
    draw(a, [{ ...bar, x: shown.labels, y: shown.values }], layout);
  }
  return { a: true, b: false, summary };
}

function renderGeneric(r, a) {
  // Anything newer: one bar per table row of the first numeric column named like CPs.
  const t = r.table;
  if (!t || !t.columns) return { a: false, b: false, summary: "" };
  const col = t.columns.findIndex((c) => /cps_required|^cps$|busy/.test(c));
  const summary = `${t.rows.length} rows`;
  if (col < 0) return { a: false, b: false, summary };
  const layout = baseLayout("", t.columns[col]);
  layout.showlegend = false;
  layout.xaxis = { ...layout.xaxis, type: "category", title: { text: "" }, automargin: true };
  const label = (row, i) => row.slice(0, Math.min(col, 3)).filter((v) => typeof v === "string" || typeof v === "number").join(" / ") || `row ${i + 1}`;
  draw(a, [{ type: "bar", x: t.rows.map((row, i) => label(row, i)), y: t.rows.map((row) => row[col]), marker: { color: COLORS.line } }], layout);
  return { a: true, b: false, summary };
}

const RENDERERS = { curve: renderCurve, closed: renderClosed, montecarlo: renderMontecarlo, optimize: renderOptimize, mix: renderMix, batch: renderBatch };
