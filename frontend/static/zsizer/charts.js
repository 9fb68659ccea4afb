// Plotly figures for the workbench, the estimate pages, the reference browser and job results.
// The numbers come from the server (/ui/chart-data, the jobs API); this file only draws them.
/* global Plotly */

import { fmt } from "./api.js";

// Rates as hover labels, written as everywhere else (fmt.rate: "0.5", "12.5", "8,000"), not rounded
// to whole transactions by a d3 format.
export const rateLabels = (xs) => (xs || []).map((x) => fmt.rate(x));

export const COLORS = {
  line: "#0b5fff",
  band: "rgba(11, 95, 255, 0.13)",
  points: "#101828",
  target: "#e4572e",
  capacity: "#c0281b",
  ceiling: "#d98e04",
  knee: "#7a3cc2",
  goal: "#1a7f4b",
  gcp: "#2f4b7c",
  spill: "#f28e2b",
  ziip: "#2a9d8f",
  series: ["#0b5fff", "#e4572e", "#2a9d8f", "#7a3cc2", "#d98e04", "#2f4b7c", "#c0281b", "#5b6675"],
};

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export const CONFIG = {
  displaylogo: false,
  responsive: true,
  modeBarButtonsToRemove: ["select2d", "lasso2d", "autoScale2d", "toggleSpikelines"],
};

/** Tick labels as the cards print numbers: thousands separators, no SI suffix ("2,000", not "2k"). */
export const NUMBERS = { separatethousands: true, exponentformat: "none" };

function baseLayout(xTitle, yTitle, extra = {}) {
  return {
    font: { family: FONT, size: 12, color: "#1b2430" },
    // The toolbar stands upright in the right margin, clear of the legend above the plot.
    margin: { l: 58, r: 40, t: 8, b: 46 },
    modebar: { orientation: "v" },
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "#fff",
    hovermode: "closest",
    hoverlabel: { font: { family: FONT, size: 12 }, align: "left" },
    showlegend: true,
    legend: { orientation: "h", x: 0, y: 1.0, yanchor: "bottom", font: { size: 11 }, bgcolor: "rgba(255,255,255,0)" },
    // One number format on the page: "2,000" on the ticks as in the cards (Plotly's default is "2k").
    xaxis: { title: { text: xTitle }, gridcolor: "#edf0f4", zeroline: false, rangemode: "tozero", automargin: true, ...NUMBERS },
    yaxis: { title: { text: yTitle }, gridcolor: "#edf0f4", zeroline: false, rangemode: "tozero", automargin: true, ...NUMBERS },
    shapes: [],
    annotations: [],
    ...extra,
  };
}

// A horizontal guide with its label above the line (``below``: under it), at the left or right
// end; the label sits on a white ground so a curve that crosses it leaves it readable.
function hline(y, color, dash, label, { x0 = 0, x1 = 1, xref = "paper", position = "right", below = false } = {}) {
  return {
    shape: { type: "line", xref, x0, x1, yref: "y", y0: y, y1: y, line: { color, width: 1.6, dash } },
    annotation: {
      xref: xref === "paper" ? "paper" : "x", x: position === "right" ? x1 : x0, y, yref: "y",
      xanchor: position === "right" ? "right" : "left", yanchor: below ? "top" : "bottom", align: position === "right" ? "right" : "left",
      text: label, showarrow: false, font: { size: 11, color }, bgcolor: "rgba(255,255,255,0.85)",
    },
  };
}

function vline(x, color, dash, label, { yanchor = "top", y = 1 } = {}) {
  return {
    shape: { type: "line", xref: "x", x0: x, x1: x, yref: "paper", y0: 0, y1: 1, line: { color, width: 1.4, dash } },
    annotation: label
      ? { xref: "x", x, yref: "paper", y, xanchor: "left", yanchor, text: label, showarrow: false, font: { size: 11, color } }
      : null,
  };
}

function addLines(layout, lines) {
  for (const l of lines) {
    layout.shapes.push(l.shape);
    if (l.annotation) layout.annotations.push(l.annotation);
  }
}

function pointHover(p, yLine) {
  const ref = [p.source, p.table, p.page ? `p. ${p.page}` : null].filter(Boolean).join(", ");
  // each measure in the server's words (presentation.measure_text: "8.56% of 10 engines")
  const published = (p.published || []).map((m) => m.text || `${m.label}: ${fmt.num(m.value, m.value < 10 ? 2 : 1)} ${m.unit}`);
  const lines = [
    `<b>${ref}</b>`,
    `ETR ${fmt.rate(p.etr)} TPS${p.response_time_ms !== null && p.response_time_ms !== undefined ? ` · response ${p.response_time_ms} ms` : ""}`,
    ...published,
  ];
  if (yLine) lines.push(yLine);
  return lines.join("<br>");
}

function draw(el, data, layout) {
  if (!el) return;
  el.querySelector(".chart-empty")?.remove();
  Plotly.react(el, data, layout, CONFIG);
}

// Nothing published to draw: say so in place of an empty plot.
function empty(el, message) {
  if (!el) return;
  Plotly.purge(el);
  el.replaceChildren(Object.assign(document.createElement("p"), { className: "chart-empty", textContent: message }));
}

// CPU against ETR: published points, fitted line with its 95% band, target, LPAR capacity.
export function drawCpu(el, cpu, context) {
  if (!cpu.line && !cpu.points.length && !cpu.bounds.length) {
    empty(el, "No CPU figures are published for this path: there is no cost to draw.");
    return;
  }
  const data = [];
  const layout = baseLayout("Transactions per second", `Busy engines (${context.target})`);
  const line = cpu.line;
  // A band only where it says something: a bounds-only cost whose low end is 0 has none.
  if (line && line.high && line.low && line.low.some((v) => v > 0)) {
    data.push(
      { x: line.etr, y: line.high, mode: "lines", line: { width: 0 }, hoverinfo: "skip", showlegend: false, name: "band high" },
      {
        x: line.etr, y: line.low, mode: "lines", line: { width: 0 }, fill: "tonexty", fillcolor: COLORS.band,
        hoverinfo: "skip", name: cpu.line.interval_basis === "published bounds" ? "Published range" : `${Math.round(cpu.level * 100)}% prediction band`,
      },
    );
  }
  if (line) {
    data.push({
      x: line.etr, y: line.busy_cps, mode: "lines", line: { color: COLORS.line, width: 2.4 },
      name: line.interval_basis === "published bounds" ? "Cost from published bounds" : `Fitted line (${cpu.component_label})`,
      customdata: rateLabels(line.etr), hovertemplate: "%{customdata} TPS → %{y:.2f} busy CPs<extra>fitted</extra>",
    });
  }
  if (cpu.points.length) {
    data.push({
      x: cpu.points.map((p) => p.etr), y: cpu.points.map((p) => p.busy_cps), mode: "markers",
      marker: { color: COLORS.points, size: 9, line: { color: "#fff", width: 1.5 } },
      // A calibration's intervals are the customer's own measurements, not published points.
      name: cpu.points[0].source_slug === null ? "Measured (your data)" : `Published (${cpu.points[0].source})`,
      text: cpu.points.map((p) =>
        pointHover(p, `Busy CPs: ${fmt.num(p.busy_cps_published, 3)} published${cpu.factor !== 1 ? ` → ${fmt.num(p.busy_cps, 3)} on target` : ""}`),
      ),
      hovertemplate: "%{text}<extra></extra>",
    });
  }
  if (cpu.bounds.length) {
    data.push({
      x: cpu.bounds.map((b) => b.tps), y: cpu.bounds.map((b) => b.busy_cps), mode: "markers",
      marker: { symbol: cpu.bounds.map((b) => (b.outcome === "sustained" ? "triangle-down" : "triangle-up")), size: 11, color: COLORS.points },
      name: "Published bounds",
      text: cpu.bounds.map((b) => `<b>${b.reference}</b><br>${b.engines} engines ${b.outcome} ${fmt.rate(b.tps)} TPS (as measured, projected)`),
      hovertemplate: "%{text}<extra></extra>",
    });
  }
  const t = cpu.target;
  if (t.busy_cps !== null) {
    data.push({
      x: [t.tps], y: [t.busy_cps], mode: "markers", name: `Target ${fmt.rate(t.tps)} TPS`,
      marker: { symbol: "diamond", size: 13, color: COLORS.target, line: { color: "#fff", width: 1.5 } },
      hovertemplate: `Target ${fmt.rate(t.tps)} TPS<br>%{y:.2f} busy engines (estimate)<extra></extra>`,
    });
  }
  const cap = cpu.capacity;
  const lines = [vline(t.tps, COLORS.target, "dot", null)];
  if (cap.cps) {
    const engines = cap.cps + (cap.ziips || 0);
    // The answer's own capacity line: its label names the generation's engine (zAAPs on a z10).
    // On a phone (a chart under 480 px) the label takes two short lines, so it ends well before
    // the band's upper edge reaches the capacity on the right; the axis leaves room above for it.
    const narrow = el.clientWidth > 0 && el.clientWidth < 480;
    const what = cap.label || `${fmt.int(cap.cps)} CPs`;
    const label = `LPAR capacity:${narrow ? "<br>" : " "}${what}`;
    lines.push(hline(engines, COLORS.capacity, "dash", label, { position: "left" }));
    if (cap.max_utilization && cap.max_utilization < 1) {
      const level = cap.ceiling ?? engines * cap.max_utilization;
      // Both labels at the left, where the busy engines are fewest (they rise with the rate to
      // the target on the right): the capacity's above its line, the ceiling's under its own, so
      // neither sits on the other nor on the fitted line, the band or the target, even 390 px wide.
      lines.push(hline(level, COLORS.ceiling, "dot", cap.ceiling_label || `${Math.round(cap.max_utilization * 100)}% ceiling`, { position: "left", below: true }));
    }
    const room = narrow ? 1.3 : 1.12;
    layout.yaxis.range = [0, Math.max(engines * room, (t.busy_cps || 0) * 1.12)];
  }
  addLines(layout, lines);
  draw(el, data, layout);
}

// Response time against TPS with the knee, saturation, target and goal.
export function drawResponse(el, rt, context) {
  // Only a lower bound at the target: with a line of the time at the engines, the target's marker
  // is that bound (the card's "≥"); without one, a floor across the chart.
  const bound = rt.target.response_time_ms === null && rt.target.low !== null ? rt.target.low : null;
  const floor = bound !== null && bound >= 0.1 && !rt.lower_bound ? bound : null;
  if (!rt.curve && !rt.lower_bound && !rt.published.length && floor === null) {
    empty(el, "No response times are published for this path.");
    return;
  }
  const data = [];
  const layout = baseLayout("Transactions per second", "Response time, ms");
  const ys = [];
  if (rt.curve) {
    data.push({
      x: rt.curve.tps, y: rt.curve.response_ms, mode: "lines", line: { color: COLORS.line, width: 2.4 }, connectgaps: false,
      name: `Model (${context.target})`, customdata: rateLabels(rt.curve.tps), hovertemplate: "%{customdata} TPS → %{y:.1f} ms<extra>model</extra>",
    });
  } else if (rt.lower_bound) {
    data.push({
      x: rt.lower_bound.tps, y: rt.lower_bound.response_ms, mode: "lines", line: { color: COLORS.line, width: 2, dash: "dash" },
      name: "Time at the engines (a lower bound)", customdata: rateLabels(rt.lower_bound.tps),
      hovertemplate: "%{customdata} TPS → %{y:.2f} ms at the engines<extra>service + queueing</extra>",
    });
    if (bound !== null && !rt.curve) {
      data.push({
        x: [rt.target.tps], y: [bound], mode: "markers", name: `Target ${fmt.rate(rt.target.tps)} TPS: ≥ ${fmt.num(bound, 3)} ms`,
        marker: { symbol: "triangle-up", size: 12, color: COLORS.target, line: { color: "#fff", width: 1.2 } },
        hovertemplate: `Target ${fmt.rate(rt.target.tps)} TPS<br>≥ %{y:.3f} ms (the answer's lower bound, low end of the cost range)<extra></extra>`,
      });
    }
  }
  if (rt.published.length) {
    const native = rt.native;
    data.push({
      x: rt.published.map((p) => p.tps), y: rt.published.map((p) => p.response_time_ms), mode: "markers",
      marker: { color: COLORS.points, size: 8, line: { color: "#fff", width: 1.2 } },
      name: `Published (${context.native || native.machine}, ${native.cps} CPs)`,
      text: rt.published.map((p) => pointHover(p)), hovertemplate: "%{text}<extra></extra>",
    });
    ys.push(...rt.published.map((p) => p.response_time_ms));
  }
  const t = rt.target;
  const lines = [];
  if (t.response_time_ms !== null) {
    const err = t.low !== null && t.high !== null
      ? { type: "data", symmetric: false, array: [t.high - t.response_time_ms], arrayminus: [t.response_time_ms - t.low], color: COLORS.target, thickness: 1.5 }
      : undefined;
    data.push({
      x: [t.tps], y: [t.response_time_ms], mode: "markers", error_y: err, name: `Target ${fmt.rate(t.tps)} TPS`,
      marker: { symbol: "diamond", size: 13, color: COLORS.target, line: { color: "#fff", width: 1.5 } },
      hovertemplate: `Target ${fmt.rate(t.tps)} TPS<br>%{y:.1f} ms<extra></extra>`,
    });
    ys.push(t.high ?? t.response_time_ms);
  }
  lines.push(vline(t.tps, COLORS.target, "dot", null));
  if (rt.knee_tps) {
    lines.push(vline(rt.knee_tps, COLORS.knee, "dash", `knee ${fmt.rate(rt.knee_tps)} TPS`, { y: 1, yanchor: "top" }));
    if (rt.knee_response_ms) {
      data.push({
        x: [rt.knee_tps], y: [rt.knee_response_ms], mode: "markers", name: "Knee",
        marker: { symbol: "circle-open", size: 12, color: COLORS.knee, line: { width: 2.5 } },
        hovertemplate: `Knee ${fmt.rate(rt.knee_tps)} TPS<br>%{y:.1f} ms<extra></extra>`,
      });
      ys.push(rt.knee_response_ms * 1.6);
    }
  }
  const sat = rt.model_saturation_tps ?? rt.saturation_tps;
  if (sat) lines.push(vline(sat, COLORS.capacity, "dash", `saturation ${fmt.int(sat)}`, { y: 0.86, yanchor: "top" }));
  if (rt.goal_ms) {
    lines.push(hline(rt.goal_ms, COLORS.goal, "dash", `goal ${fmt.num(rt.goal_ms, 0)} ms`, { position: "left" }));
    ys.push(rt.goal_ms * 1.25);
  }
  if (floor !== null) {
    // Only a lower bound is known (e.g. a packet trace of one request on an idle system).
    lines.push(hline(floor, COLORS.points, "dot", `published floor ${fmt.num(floor, 1)} ms`, { position: "left" }));
    ys.push(floor * 1.3);
    if (!rt.curve && !rt.lower_bound) layout.xaxis.range = [0, t.tps * 1.25];
  }
  addLines(layout, lines);
  if (ys.length) layout.yaxis.range = [0, Math.max(...ys) * 1.25];
  draw(el, data, layout);
}

// Busy engines on CPs and specialty engines (zIIPs, or zAAPs on z10..zEC12), eligible work that runs on CPs apart.
export function drawDemand(el, demand) {
  if (demand.total === null || demand.total === undefined) {
    empty(el, "No CPU demand to split: the path publishes no CPU figures.");
    return;
  }
  // The generation's specialty engine: zAAPs on z10..zEC12/zBC12, zIIPs from z13.
  const engine = demand.engine || "zIIP";
  const x = ["General-purpose CPs", `${engine}s`];
  const data = [
    {
      type: "bar", x, y: [demand.gcp_work, 0], name: "Work on CPs", marker: { color: COLORS.gcp },
      hovertemplate: `%{y:.2f} busy CPs<extra>not ${engine}-eligible</extra>`,
    },
    {
      type: "bar", x, y: [demand.ziip_on_gcp, 0], name: `${engine}-eligible on CPs`, marker: { color: COLORS.spill, pattern: { shape: "/", fillmode: "overlay", fgcolor: "rgba(255,255,255,0.55)", size: 7 } },
      hovertemplate: `%{y:.2f} busy CPs<extra>${engine}-eligible work on CPs</extra>`,
    },
    {
      type: "bar", x, y: [0, demand.ziip], name: `Work on ${engine}s`, marker: { color: COLORS.ziip },
      hovertemplate: `%{y:.2f} busy ${engine}s<extra>on ${engine}s</extra>`,
    },
  ];
  const layout = baseLayout("", "Busy engines", { barmode: "stack", bargap: 0.45 });
  layout.xaxis = { ...layout.xaxis, title: { text: "" }, rangemode: "normal" };
  const top = [demand.gcp_work + demand.ziip_on_gcp, demand.ziip];
  const lines = [];
  const caps = [demand.cps, demand.ziips];
  caps.forEach((n, i) => {
    if (!n) return;
    lines.push(hline(n, COLORS.capacity, "dash", `${n} ${i ? `${engine}s` : "CPs"}`, { xref: "x", x0: i - 0.38, x1: i + 0.38 }));
    if (demand.max_utilization && demand.max_utilization < 1) {
      lines.push({ shape: { type: "line", xref: "x", x0: i - 0.38, x1: i + 0.38, yref: "y", y0: n * demand.max_utilization, y1: n * demand.max_utilization, line: { color: COLORS.ceiling, width: 1.4, dash: "dot" } } });
    }
  });
  addLines(layout, lines);
  layout.yaxis.range = [0, Math.max(...top, ...caps.map((n) => n || 0), 1) * 1.18];
  layout.legend.traceorder = "normal";
  for (const trace of data) {
    trace.text = trace.y.map((v) => (v > 0.005 ? fmt.num(v, 2) : ""));
    trace.textposition = "inside";
    trace.insidetextanchor = "middle";
    trace.textfont = { color: "#fff", size: 11 };
  }
  draw(el, data, layout);
}

// Reference browser: busy engines of one CPU component (one series per configuration) and the
// response times of a source's points.
export function drawSourcePoints(cpuEl, rtEl, chart, component) {
  if (cpuEl && chart.cpu.length) {
    const series = chart.cpu.filter((s) => s.component === component);
    const data = series.map((s, i) => ({
      x: s.etr, y: s.busy, mode: "lines+markers", name: s.configuration,
      line: { color: COLORS.series[i % COLORS.series.length], width: 1.5 }, marker: { size: 7 },
      // rates as the workbench says them (fmt.rate: "1,923 TPS", "12.5 TPS")
      text: s.text, customdata: rateLabels(s.etr), hovertemplate: "%{text}<br>%{customdata} TPS → %{y:.3f} busy engines<extra></extra>",
    }));
    draw(cpuEl, data, baseLayout("Transactions per second", `${component}: busy engines`));
  }
  if (rtEl && chart.response.length) {
    const data = chart.response.map((s, i) => ({
      x: s.etr, y: s.response_ms, mode: "lines+markers", name: s.configuration,
      line: { color: COLORS.series[i % COLORS.series.length], width: 1.5 }, marker: { size: 7 },
      text: s.text, customdata: rateLabels(s.etr), hovertemplate: "%{text}<br>%{customdata} TPS → %{y:,.4~g} ms<extra></extra>",
    }));
    draw(rtEl, data, baseLayout("Transactions per second", "Response time, ms"));
  }
}

// "What would help": the server's advice for an answer that does not carry its target, following
// the binding resource (sizing.presentation.advice); hidden when there is none.
export function drawAdvice(el, advice) {
  if (!el) return;
  const items = advice || [];
  el.hidden = items.length === 0;
  const list = document.createElement("ul");
  for (const a of items) {
    const li = document.createElement("li");
    li.dataset.resource = a.resource;
    li.textContent = a.sentence;
    list.append(li);
  }
  const head = document.createElement(el.dataset.heading || "h3"); // the page's level: h2 under an h1
  head.className = "h3";
  head.textContent = "What would help";
  el.replaceChildren(head, list);
}

export { baseLayout, draw, hline, vline, addLines };

// Printing: redraw every chart at the printed width (the print stylesheet sizes the boxes),
// and back at screen width afterwards.
function resizeAll() {
  if (!window.Plotly) return;
  document.querySelectorAll(".js-plotly-plot").forEach((el) => window.Plotly.Plots.resize(el));
}
window.addEventListener("beforeprint", resizeAll);
window.addEventListener("afterprint", resizeAll);
