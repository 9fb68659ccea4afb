// The target-model combobox (WAI-ARIA 1.2 combobox with a listbox popup): any of the rated models
// in a few keystrokes, searched by machine type, name, generation, setting or model identifier.
// Every word typed must appear ("z16 510", "3931 6xx", "9176 d05"). The list of models is fetched
// once, on first use, so the page's first answer does not wait for it.
import { fmt, getJSON } from "./api.js";

const MAX_SHOWN = 40;

export function initModelPicker({ input, list, url, onPick }) {
  let data = null;
  let loading = null;
  let shown = [];
  let active = -1;

  function load() {
    if (!loading) {
      loading = getJSON(url).then((body) => {
        const machines = body.machines;
        data = body.models.map(([model, machine, setting, cps, mips, msu]) => {
          const m = machines[machine] || {};
          const full = setting === m.full_speed;
          const kind = full ? "full speed" : /^[4-6]/.test(setting) ? "sub-capacity" : "midrange";
          const label = `${model} · ${m.name} · ${setting}${full ? " full speed" : ""} · ${cps} CP${cps === 1 ? "" : "s"} · ${fmt.int(mips)} MIPS · ${fmt.int(msu)} MSU`;
          const words = [model, model.replace("-", ""), m.name, m.generation, m.machine_type, machine, setting,
            `${setting[0]}xx`, kind, `${cps}cps`];
          return { model, machine, setting, cps, mips, msu, label, text: words.join(" ").toLowerCase() };
        });
        return data;
      });
      loading.catch(() => {
        loading = null; // try again on the next keystroke
      });
    }
    return loading;
  }

  function matches(query) {
    const words = query.toLowerCase().split(/[\s,·]+/).filter(Boolean);
    if (!words.length) return data.slice(0, MAX_SHOWN); // newest machine type, full speed first
    // Rows whose model part starts with a word typed ("5" -> 3931-5xx) come first; then the
    // server's order (newest machine type, full speed first, by CPs).
    const code = (r) => r.model.slice(5).toLowerCase();
    const score = (r) => words.reduce((n, w) => n + (code(r).startsWith(w) || r.model.toLowerCase() === w ? 2 : 0), 0);
    const hits = data.filter((r) => words.every((w) => r.text.includes(w)));
    return hits
      .map((r, i) => [score(r), i, r])
      .sort((a, b) => b[0] - a[0] || a[1] - b[1])
      .slice(0, MAX_SHOWN)
      .map(([, , r]) => r);
  }

  function setActive(i) {
    active = i;
    [...list.children].forEach((li, k) => li.setAttribute("aria-selected", String(k === i)));
    if (i >= 0 && list.children[i]) {
      input.setAttribute("aria-activedescendant", list.children[i].id);
      list.children[i].scrollIntoView({ block: "nearest" });
    } else input.removeAttribute("aria-activedescendant");
  }

  function open(rows) {
    shown = rows;
    list.replaceChildren(
      ...rows.map((r, k) => {
        const li = document.createElement("li");
        li.id = `model-option-${k}`;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        li.dataset.model = r.model;
        li.textContent = r.label;
        li.addEventListener("mousedown", (event) => {
          event.preventDefault(); // keep the focus in the input
          pick(r);
        });
        return li;
      }),
    );
    if (!rows.length) {
      const li = document.createElement("li");
      li.className = "combo-empty";
      li.textContent = "No rated model matches: try a machine type (3931), a name (z16) or a model (3931-510).";
      list.replaceChildren(li);
    }
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    setActive(rows.length ? 0 : -1);
  }

  function close() {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    setActive(-1);
  }

  function pick(row) {
    input.value = row.model;
    close();
    onPick(row);
  }

  async function refresh() {
    try {
      await load();
    } catch {
      return; // the list could not be read: the box still takes a model typed in full
    }
    if (document.activeElement === input) open(matches(input.value));
  }

  input.addEventListener("focus", refresh);
  input.addEventListener("input", refresh);
  input.addEventListener("blur", close);
  input.addEventListener("keydown", async (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (list.hidden) return refresh();
      const step = event.key === "ArrowDown" ? 1 : -1;
      if (shown.length) setActive((active + step + shown.length) % shown.length);
    } else if (event.key === "Enter" && !list.hidden && active >= 0) {
      event.preventDefault(); // pick, do not submit yet
      pick(shown[active]);
    } else if (event.key === "Escape" && !list.hidden) {
      event.preventDefault();
      close();
    }
  });

  // The model of an identifier typed in full (or from the URL), once the list is loaded.
  return {
    async find(model) {
      try {
        await load();
      } catch {
        return null;
      }
      const key = String(model || "").toUpperCase().replace(/\s+/g, "");
      const exact = data.find((r) => r.model === key || r.model.replace("-", "") === key);
      if (exact) return exact;
      // "z16 510": every word matches, and one word is the model's own number (3931-510).
      const words = String(model || "").toUpperCase().split(/[\s,·]+/).filter(Boolean);
      const own = matches(String(model || "")).filter((r) => words.includes(r.model.split("-")[1]));
      return own[0] || null;
    },
  };
}
