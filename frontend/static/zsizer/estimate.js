// A saved estimate: its charts, drawn from /ui/chart-data with the stored inputs.
import { getJSON } from "./api.js";
import { drawAdvice, drawCpu, drawDemand, drawResponse } from "./charts.js";

document.querySelectorAll("form[data-confirm]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
});

const inputs = JSON.parse(document.getElementById("estimate-inputs").textContent);
const box = document.getElementById("estimate-charts");
const status = document.getElementById("chart-status");

try {
  const answer = await getJSON(box.dataset.chartUrl, Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, String(v)])));
  const context = { target: `${answer.target.generation}, ${answer.cpu.capacity.cps ?? "?"} CPs`, native: answer.native.generation };
  drawCpu(document.getElementById("chart-cpu"), answer.cpu, context);
  drawResponse(document.getElementById("chart-response"), answer.response, context);
  drawDemand(document.getElementById("chart-demand"), answer.demand);
  drawAdvice(document.getElementById("advice"), answer.advice);
} catch (err) {
  status.textContent = `The charts could not be drawn: ${err.message}`;
}
