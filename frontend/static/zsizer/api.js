// Small fetch helpers: same-origin, session cookie, CSRF token on unsafe methods.

const csrfToken = () => document.querySelector('meta[name="csrf-token"]')?.content ?? "";

export class ApiError extends Error {
  // fields: {field: ["sentence", ...]} as the API answers a 400; status: HTTP status.
  constructor(status, fields, message) {
    super(message);
    this.status = status;
    this.fields = fields;
  }
}

async function parse(response) {
  const type = response.headers.get("Content-Type") || "";
  const body = type.includes("json") ? await response.json() : null;
  if (response.ok) return body;
  if (response.status === 400 && body && typeof body === "object") {
    throw new ApiError(400, body, "Please correct the highlighted fields.");
  }
  if (response.status === 401 || response.status === 403) {
    throw new ApiError(response.status, {}, (body && body.detail) || "Your session has expired: log in again.");
  }
  throw new ApiError(response.status, {}, (body && body.detail) || `The server answered ${response.status}.`);
}

export async function getJSON(url, params, { signal } = {}) {
  const query = params ? `?${new URLSearchParams(params)}` : "";
  const response = await fetch(url + query, {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    signal,
  });
  return parse(response);
}

export async function sendJSON(method, url, body) {
  const response = await fetch(url, {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  return parse(response);
}

// Field errors: {field: [..]} -> text next to the field (#err-<field>), aria-invalid on the input;
// errors for fields the form does not show go to the form's alert box.
export function showErrors(form, fields, { prefix = "f-", errorPrefix = "err-", alertBox } = {}) {
  clearErrors(form, { alertBox });
  const loose = [];
  for (const [name, messages] of Object.entries(fields || {})) {
    const text = Array.isArray(messages) ? messages.join(" ") : String(messages);
    const input = form.querySelector(`#${prefix}${CSS.escape(name)}`);
    const slot = form.querySelector(`#${errorPrefix}${CSS.escape(name)}`);
    if (input && slot) {
      input.setAttribute("aria-invalid", "true");
      slot.textContent = text;
      slot.hidden = false;
      const details = input.closest("details");
      if (details) details.open = true;
    } else {
      loose.push(name === "non_field_errors" || name === "detail" ? text : `${name}: ${text}`);
    }
  }
  if (alertBox && loose.length) {
    alertBox.textContent = loose.join(" ");
    alertBox.hidden = false;
  }
  const first = form.querySelector('[aria-invalid="true"]');
  return first;
}

export function clearErrors(form, { alertBox } = {}) {
  form.querySelectorAll('[aria-invalid="true"]').forEach((el) => el.removeAttribute("aria-invalid"));
  form.querySelectorAll(".field-error").forEach((el) => {
    el.textContent = "";
    el.hidden = true;
  });
  if (alertBox) {
    alertBox.textContent = "";
    alertBox.hidden = true;
  }
}

// Number formatting shared by the pages.
export const fmt = {
  int: (v) => (v === null || v === undefined ? "—" : Math.round(v).toLocaleString("en-US")),
  num: (v, digits = 1) =>
    v === null || v === undefined || !Number.isFinite(v)
      ? "—"
      : v.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }),
  // A transaction rate, as sizing.presentation.rate writes it: whole from 100 up ("8,000"),
  // its significant decimals below ("12.5", "0.5", "0.25"), trailing zeros dropped.
  rate: (v) => {
    if (v === null || v === undefined || !Number.isFinite(v)) return "—";
    const a = Math.abs(v);
    const digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 0.1 ? 2 : 3;
    return v.toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: digits });
  },
  pct: (v) => (v === null || v === undefined ? "—" : `${(v * 100).toFixed(0)}%`),
};
