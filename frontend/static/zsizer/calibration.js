// Private calibrations: paste a report, read it through the API, fix the intervals, save.
import { ApiError, clearErrors, fmt, sendJSON, showErrors } from "./api.js";

document.querySelectorAll("form[data-confirm]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
});

const form = document.getElementById("calibration-form");
if (form) {
  const alertBox = document.getElementById("form-errors");
  const text = document.getElementById("f-text");
  const readStatus = document.getElementById("read-status");
  const saveStatus = document.getElementById("save-status");
  const sections = document.querySelector("#section-table");
  const rows = document.querySelector("#interval-table tbody");
  const FIELDS = [
    ["label", "text", "label"],
    ["etr", "decimal", "ETR"],
    ["cpu", "decimal", "CPU %"],
    ["response_time_ms", "decimal", "response ms"],
    ["ziip_eligible_pct", "decimal", "zIIP-eligible %"],
  ];
  const show = (el, on) => { el.hidden = !on; };
  const format = () => form.querySelector('input[name="format"]:checked').value;

  function addRow(interval = {}) {
    const tr = document.createElement("tr");
    const n = rows.children.length + 1;
    const cpu = interval.cpu_pct ? Object.values(interval.cpu_pct).reduce((a, b) => a + b, 0) : "";
    const values = { ...interval, cpu };
    for (const [name, mode, title] of FIELDS) {
      const td = document.createElement("td");
      const input = document.createElement("input");
      input.type = "text";
      input.name = name;
      if (mode === "decimal") input.inputMode = "decimal";
      else input.className = "label";
      input.value = values[name] === null || values[name] === undefined ? "" : String(values[name]);
      input.setAttribute("aria-label", `Interval ${n} ${title}`);
      td.append(input);
      tr.append(td);
    }
    const td = document.createElement("td");
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "btn btn-small btn-danger";
    remove.textContent = "Remove";
    remove.setAttribute("aria-label", `Remove interval ${n}`);
    remove.addEventListener("click", () => tr.remove());
    td.append(remove);
    tr.append(td);
    rows.append(tr);
  }

  function showSections(list) {
    const body = sections.querySelector("tbody");
    body.replaceChildren();
    for (const s of list) {
      const tr = document.createElement("tr");
      const cells = [
        `${s.kind.replace("_", " ")} ${s.name}`,
        fmt.num(s.transactions.end_per_s, 2),
        fmt.num(s.appl.cp, 2),
        fmt.num(s.appl.iipcp, 2),
        fmt.num(s.appl.iip, 2),
        fmt.num(s.times_ms.actual, 0),
        s.transactions_mobile ? fmt.num(s.transactions_mobile.cp, 2) : "—",
      ];
      cells.forEach((value, i) => {
        const td = document.createElement("td");
        td.textContent = value;
        if (i) td.className = "num";
        tr.append(td);
      });
      body.append(tr);
    }
    show(sections, list.length > 0);
  }

  // CSV read in the page (the server reads it again, strictly, when it is saved).
  function csvIntervals(source) {
    const lines = source.trim().split(/\r?\n/).filter((l) => l.trim());
    const header = (lines.shift() || "").split(",").map((h) => h.trim().toLowerCase());
    return lines.map((line, i) => {
      const cells = line.split(",").map((c) => c.trim());
      const get = (name) => (header.includes(name) ? cells[header.indexOf(name)] : "");
      const number = (name) => (get(name) === "" ? null : Number(get(name)));
      return {
        label: get("label") || `CSV line ${i + 2}`,
        etr: number("etr"),
        cpu_pct: { lpar: number("cpu_pct") },
        response_time_ms: number("response_time_ms"),
        ziip_eligible_pct: number("ziip_eligible_pct"),
      };
    });
  }

  document.getElementById("read-button").addEventListener("click", async () => {
    clearErrors(form, { alertBox });
    readStatus.textContent = "Reading…";
    try {
      let intervals;
      if (format() === "rmf") {
        const body = await sendJSON("POST", form.dataset.parseUrl, { text: text.value });
        showSections(body.sections);
        intervals = body.intervals;
      } else {
        showSections([]);
        intervals = csvIntervals(text.value);
      }
      rows.replaceChildren();
      intervals.forEach((i) => addRow(i));
      show(document.getElementById("read-result"), true);
      show(document.getElementById("save-box"), true);
      readStatus.textContent = `${intervals.length} interval${intervals.length === 1 ? "" : "s"} read.`;
    } catch (error) {
      readStatus.textContent = "";
      if (error instanceof ApiError) showErrors(form, error.fields, { alertBox });
      else throw error;
    }
  });

  document.getElementById("add-row").addEventListener("click", () => addRow());

  function collect() {
    return [...rows.children].map((tr) => {
      const value = (name) => tr.querySelector(`input[name="${name}"]`).value.trim();
      const number = (name) => (value(name) === "" ? null : Number(value(name)));
      return {
        label: value("label"),
        etr: number("etr"),
        cpu_pct: { lpar: number("cpu") },
        response_time_ms: number("response_time_ms"),
        ziip_eligible_pct: number("ziip_eligible_pct"),
      };
    });
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form, { alertBox });
    saveStatus.textContent = "Fitting and saving…";
    const whole = (id) => {
      const v = document.getElementById(id).value.trim();
      return v === "" ? null : Number(v);
    };
    const body = {
      name: document.getElementById("f-name").value.trim(),
      path: document.getElementById("f-path").value,
      model: document.getElementById("f-model").value.trim(),
      cps: whole("f-cps"),
      ziips: whole("f-ziips"),
      intervals: collect(),
    };
    try {
      const saved = await sendJSON("POST", form.dataset.createUrl, body);
      saveStatus.textContent = "Saved.";
      window.location.assign(`${form.dataset.pagesUrl}${saved.id}/`);
    } catch (error) {
      saveStatus.textContent = "";
      if (error instanceof ApiError) showErrors(form, error.fields, { alertBox });
      else throw error;
    }
  });
}
