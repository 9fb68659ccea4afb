// "Other machines": which model fits (GET /api/v1/fit) and today's machine beside the newest ones
// (GET /api/v1/upgrade), for the inputs of the answer on screen. Results belong to those inputs:
// clear() removes them when the inputs change.
import { ApiError, fmt, getJSON } from "./api.js";

const FIT_FIELDS = ["path", "configuration", "tps", "max_utilization", "response_time_sla_ms", "payload_bytes", "ziips", "smt2_factor"];
const UPGRADE_FIELDS = [...FIT_FIELDS, "machine", "model", "capacity_setting", "cps"];

function el(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function pick(inputs, names) {
  return Object.fromEntries(names.filter((n) => inputs[n] !== undefined && inputs[n] !== "").map((n) => [n, inputs[n]]));
}

function table(head, rows, { caption } = {}) {
  const t = el("table", { className: "table table-compact" });
  if (caption) t.append(el("caption", { className: "sr-only", textContent: caption }));
  t.append(el("thead", {}, [el("tr", {}, head.map((h, i) => el("th", { scope: "col", className: i ? "num" : "", textContent: h })))]));
  t.append(el("tbody", {}, rows));
  return t;
}

export function initTargetsPanel(root, { getInputs, onUseModel }) {
  const status = root.querySelector("#targets-status");
  const errors = root.querySelector("#targets-errors");
  const fitBox = root.querySelector("#fit-result");
  const upgradeBox = root.querySelector("#upgrade-result");
  const generations = root.querySelector("#fit-generations");

  async function call(url, params, box, render) {
    errors.hidden = true;
    status.textContent = "Sizing every model…";
    box.replaceChildren();
    try {
      const body = await getJSON(url, params);
      render(body, box);
      status.textContent = "";
    } catch (err) {
      status.textContent = "";
      const fields = err instanceof ApiError && err.status === 400 ? err.fields : { detail: [err.message] };
      errors.textContent = Object.entries(fields).map(([k, v]) => `${k}: ${[].concat(v).join(" ")}`).join(" ");
      errors.hidden = false;
    }
  }

  function renderFit(body, box) {
    const byGen = new Map();
    for (const r of body.rows) {
      if (!byGen.has(r.generation)) byGen.set(r.generation, []);
      byGen.get(r.generation).push(r);
    }
    const parts = [el("p", { className: "small" }, [
      `At ${fmt.rate(body.tps)} TPS within ${fmt.pct(body.max_utilization)} utilisation` +
        (body.response_time_sla_ms ? ` and ${fmt.num(body.response_time_sla_ms, 0)} ms` : "") +
        (body.cheapest ? `: the cheapest in MSU is ${body.cheapest}.`
          : body.rows.length && body.rows.every((r) => r.fits === null) ? ": no verdict, no CPU figures are published for this path."
            : ": no model asked about carries it."),
    ])];
    for (const [gen, rows] of byGen) {
      const fits = rows.filter((r) => r.fits === true);
      const misses = rows.filter((r) => r.fits === false);
      // no CPU figures: no verdict either way (the workbench hides this panel for such answers;
      // the API's rows say fits null)
      const unknown = rows.filter((r) => r.fits === null);
      const trs = fits.map((r) => {
        const use = el("button", { type: "button", className: "btn btn-small", textContent: r.model });
        use.setAttribute("aria-label", `Size on ${r.model}`);
        use.addEventListener("click", () => onUseModel(r.model));
        const tr = el("tr", { className: r.cheapest_in_generation ? "is-cheapest" : "" }, [
          el("td", {}, [use, r.cheapest_in_generation ? el("span", { className: "badge badge-cheapest", textContent: r.cheapest ? "cheapest in MSU" : `cheapest ${gen}` }) : ""]),
          el("td", { textContent: `${r.capacity_setting} ${r.kind}` }),
          el("td", { className: "num", textContent: r.cps }),
          el("td", { className: "num", textContent: r.ziips ?? "—" }),
          el("td", { className: "num", textContent: fmt.int(r.mips) }),
          el("td", { className: "num", textContent: fmt.int(r.msu) }),
          el("td", { className: "num", textContent: fmt.int(r.msu_used) }),
          el("td", { className: "num", textContent: fmt.pct(r.gcp_utilization) }),
          el("td", { className: "num", textContent: r.saturation_tps === null ? "—" : fmt.rate(r.saturation_tps) }),
        ]);
        tr.dataset.model = r.model;
        if (r.cheapest) tr.dataset.cheapest = "true";
        return tr;
      });
      parts.push(el("h4", { textContent: gen }));
      if (trs.length) {
        parts.push(table(["Model", "Setting", "CPs", "zIIPs", "MIPS", "MSU", "MSU used", "CP util.", "Saturates at, TPS"], trs,
          { caption: `Models of ${gen} that carry the rate` }));
      }
      if (misses.length) {
        // A sentence per setting: "Setting 400 does not carry it: 60,000 TPS is ..." (the engine's
        // reason without its own "does not fit:" prefix), never "Does not fit: 400: does not fit: ...".
        const reason = (text) => String(text || "").replace(/^(does not fit|not shown to fit):\s*/i, "");
        const named = misses.filter((r) => r.kind !== "midrange").map((r) => `Setting ${r.capacity_setting} does not carry it: ${reason(r.reason)}.`);
        const mid = misses.length - named.length;
        const midText = mid ? `${mid} midrange setting${mid === 1 ? " does" : "s do"} not carry it.` : "";
        parts.push(el("p", { className: "muted small", textContent: [...named, midText].filter(Boolean).join(" ") }));
      }
      if (unknown.length) {
        const why = [...new Set(unknown.map((r) => String(r.reason || "").replace(/\.$/, "")))].filter(Boolean);
        parts.push(el("p", { className: "muted small", textContent: `No verdict for ${unknown.length === 1 ? "its setting" : `its ${unknown.length} settings`}: ${why.join("; ") || "no CPU figures are published"}.` }));
      }
    }
    parts.push(el("p", { className: "muted small", textContent: `MSU: installed MSU of the model (what software is priced on); MSU used: the CP work. Source: ${body.source}.` }));
    box.replaceChildren(...parts);
  }

  function renderUpgrade(body, box) {
    // Today's machine once: a newest-machine column that is today's model again is left out.
    const today = body.columns.find((c) => c.label === "today");
    const cols = body.columns.filter((c) => c === today || !today || c.model !== today.model);
    // A range only when low and high differ as printed; an open end is a lower bound.
    const rng = (r, f) => {
      if (!r || r[0] === null) return "";
      if (r[1] === null) return `≥ ${f(r[0])} (lower bound)`;
      return f(r[0]) === f(r[1]) ? "" : `${f(r[0])}–${f(r[1])}`;
    };
    const bandGiven = !body.band_basis.startsWith("none");
    const rows = [
      ["Model", (c) => c.model],
      ["CPs", (c) => (c.cps_required !== null && c.cps_required !== c.cps ? `${fmt.int(c.cps)} (needs ${fmt.int(c.cps_required)})` : fmt.int(c.cps))],
      ["CPs, range", (c) => rng(c.cps_range, (v) => fmt.int(v))],
      ["Specialty engines", (c) => (c.ziips === null || c.ziips === undefined ? "—" : `${fmt.int(c.ziips)} ${c.specialty_engine || "zIIP"}${c.ziips === 1 ? "" : "s"}`)],
      ["MIPS installed", (c) => fmt.int(c.mips_installed)],
      ["MIPS used (CPs)", (c) => fmt.int(c.mips_used)],
      ["MSU installed", (c) => fmt.int(c.msu_installed)],
      ["MSU used", (c) => fmt.int(c.msu_used)],
      ["CP utilisation", (c) => fmt.pct(c.gcp_utilization)],
      ["Saturates at, TPS", (c) => (c.saturation_tps === null ? "—" : fmt.rate(c.saturation_tps))],
      ["Saturation range", (c) => rng(c.saturation_range, (v) => fmt.int(v))],
      ["Projection band", (c) => (bandGiven ? `±${fmt.pct(c.projection_band)} (given)` : `none given; ±${fmt.pct(c.assumed_band)} would be assumed (${c.generation_gap} generation${c.generation_gap === 1 ? "" : "s"} from the measured ${body.measured.generation})`)],
    ];
    const head = el("tr", {}, [el("th", { scope: "col" }, [el("span", { className: "visually-hidden", textContent: "Figure" })]), ...cols.map((c) => el("th", { scope: "col", className: "num", textContent: c.label === "today" ? `Today (${c.model})` : c.label }))]);
    const t = el("table", { className: "table table-compact upgrade-table" }, [
      el("caption", { className: "sr-only", textContent: "Today's machine beside the newest ones" }),
      el("thead", {}, [head]),
      el("tbody", {}, rows.map(([label, f]) => el("tr", {}, [el("th", { scope: "row", textContent: label }), ...cols.map((c) => el("td", { className: "num", textContent: String(f(c)) }))]))),
    ]);
    box.replaceChildren(
      el("p", { className: "small", textContent: `At ${fmt.rate(body.tps)} TPS; CPs of the newer machines sized within the ceiling.` }),
      el("div", { className: "table-scroll" }, [t]),
      el("p", { className: "muted small", textContent: `Projection band: ${body.band_basis}. Source: ${body.source}.` }),
    );
  }

  root.querySelector("#fit-button").addEventListener("click", () => {
    const params = { ...pick(getInputs(), FIT_FIELDS), ...(generations.value ? { generations: generations.value } : {}) };
    call(root.dataset.fitUrl, params, fitBox, renderFit);
  });
  root.querySelector("#upgrade-button").addEventListener("click", () => {
    call(root.dataset.upgradeUrl, pick(getInputs(), UPGRADE_FIELDS), upgradeBox, renderUpgrade);
  });

  return {
    clear() {
      fitBox.replaceChildren();
      upgradeBox.replaceChildren();
      errors.hidden = true;
      status.textContent = "";
    },
  };
}
