// Reference browser: chart a source document's published points, one CPU component at a time.
import { drawSourcePoints } from "./charts.js";

const chart = JSON.parse(document.getElementById("source-chart").textContent);
const select = document.getElementById("source-component");
const cpuEl = document.getElementById("chart-source-cpu");
const rtEl = document.getElementById("chart-source-rt");

const components = [...new Set(chart.cpu.map((s) => s.component))];
if (select) {
  select.replaceChildren(...components.map((c) => Object.assign(document.createElement("option"), { value: c, textContent: c })));
  const preferred = ["LPAR busy", "CICS address spaces"].find((c) => components.includes(c));
  if (preferred) select.value = preferred;
  select.addEventListener("change", () => drawSourcePoints(cpuEl, null, chart, select.value));
}
drawSourcePoints(cpuEl, rtEl, chart, select ? select.value : components[0]);
