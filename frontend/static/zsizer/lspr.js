// LSPR pages: capacity of one CP (MIPS or MSU) against the CP count, one line per machine and
// capacity setting, from the stored ratings (the page's JSON); filters redraw in place.
import { baseLayout, draw } from "./charts.js";
import { fmt } from "./api.js";

const chart = JSON.parse(document.getElementById("lspr-chart").textContent);
const el = document.getElementById("chart-lspr");
const settingSel = document.getElementById("lspr-setting");
const metricSel = document.getElementById("lspr-metric");

// Twelve distinguishable colours, one per machine type (the shared palette has eight).
const PALETTE = ["#0b5fff", "#e4572e", "#2a9d8f", "#7a3cc2", "#d98e04", "#2f4b7c", "#c0281b", "#5b6675",
  "#1a7f4b", "#d6336c", "#0aa2c0", "#8c6d31"];

const MEASURES = {
  mips: { title: "MIPS per CP", value: (s, i) => s.mips[i] / s.cps[i], digits: 0 },
  msu: { title: "MSU per CP", value: (s, i) => s.msu[i] / s.cps[i], digits: 1 },
  total: { title: "MIPS of the model", value: (s, i) => s.mips[i], digits: 0 },
};

function wanted(s, setting) {
  if (!settingSel) return true; // a machine page: every setting of the machine
  if (setting === "all") return true;
  if (setting === "full speed") return s.kind === "full speed";
  return s.setting.startsWith(setting);
}

function redraw() {
  const setting = settingSel ? settingSel.value : "all";
  const measure = MEASURES[metricSel ? metricSel.value : "mips"];
  const machines = [...new Set(chart.series.map((s) => s.machine))];
  const series = chart.series.filter((s) => wanted(s, setting));
  const data = series.map((s, k) => {
    const colour = settingSel ? PALETTE[machines.indexOf(s.machine) % PALETTE.length] : PALETTE[k % PALETTE.length];
    const y = s.cps.map((_, i) => measure.value(s, i));
    return {
      x: s.cps,
      y,
      mode: s.cps.length > 1 ? "lines+markers" : "markers",
      name: settingSel ? `${s.name} ${s.setting}` : `${s.setting} ${s.kind}`,
      line: { color: colour, width: 1.5, dash: s.kind === "full speed" ? "solid" : "dot" },
      marker: { size: 4, color: colour },
      text: s.models.map((m, i) => `<b>${m}</b> · ${s.cps[i]} CPs<br>${fmt.int(s.mips[i])} MIPS · ${fmt.int(s.msu[i])} MSU<br>${measure.title}: ${fmt.num(y[i], measure.digits)}`),
      hovertemplate: "%{text}<extra></extra>",
    };
  });
  const layout = baseLayout("CPs of the model", measure.title, { hovermode: "closest" });
  layout.legend = { orientation: "v", x: 1.01, y: 1, font: { size: 10 } };
  layout.margin = { ...layout.margin, r: 8 };
  draw(el, data, layout);
  el.dataset.traces = String(data.length);
}

settingSel?.addEventListener("change", redraw);
metricSel?.addEventListener("change", redraw);
redraw(); // modules run after the deferred plotly.js, in document order
