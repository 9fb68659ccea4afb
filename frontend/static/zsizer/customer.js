// "Prepared for": the customer a PDF is prepared for, typed once in any field beside a PDF link
// ([data-customer-field]) and remembered for the browser session (sessionStorage); every PDF link
// ([data-customer-pdf]) carries it as ?customer= when followed, and a POSTed PDF (the CEC's
// placement) asks customerQuery().
const KEY = "zsizer.customer";
export const MAX_LENGTH = 120; // sizing.presentation.CUSTOMER_MAX_LENGTH

export function customer() {
  try {
    return (sessionStorage.getItem(KEY) || "").trim().slice(0, MAX_LENGTH);
  } catch {
    return "";
  }
}

function remember(value) {
  try {
    if (value.trim()) sessionStorage.setItem(KEY, value.trim());
    else sessionStorage.removeItem(KEY);
  } catch {
    /* storage refused (private mode): the field still works for this page */
  }
}

/** "&customer=Bank%20A" (or "") to append to a URL that has a query already. */
export function customerQuery() {
  const name = customer();
  return name ? `&customer=${encodeURIComponent(name)}` : "";
}

/** ``href`` with the remembered customer set (or removed) as its ?customer= parameter. */
export function withCustomer(href) {
  if (!href || href === "#") return href;
  const url = new URL(href, window.location.href);
  const name = customer();
  if (name) url.searchParams.set("customer", name);
  else url.searchParams.delete("customer");
  return url.origin === window.location.origin ? `${url.pathname}${url.search}${url.hash}` : url.href;
}

function fields() {
  return document.querySelectorAll("[data-customer-field]");
}

for (const field of fields()) {
  field.maxLength = MAX_LENGTH;
  field.value = customer();
  field.addEventListener("input", () => {
    remember(field.value);
    for (const other of fields()) if (other !== field) other.value = field.value;
  });
}

// Capture phase: the link's own handlers (the job panel's heavy-report polling) see the new href.
document.addEventListener(
  "click",
  (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[data-customer-pdf]") : null;
    if (link) link.href = withCustomer(link.getAttribute("href"));
  },
  true,
);
