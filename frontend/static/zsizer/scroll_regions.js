// A table wider than the screen scrolls inside itself, never the page (app.css: on a phone every
// table does).  A region that scrolls must be reachable from the keyboard, so that its hidden
// columns can be scrolled into view without a mouse (WCAG 2.1.1; axe-core's
// scrollable-region-focusable): each one that overflows takes focus (tabindex 0) and gives it back
// once it fits again.  Tables drawn later by a page's script are found as they appear.
const SCROLLERS = "table, .table-scroll";
const MARK = "scrollFocus"; // data-scroll-focus: the tabindex (and "region": the role) are ours to take back

function scrolls(el) {
  const style = getComputedStyle(el);
  const x = /auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
  const y = /auto|scroll/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1;
  return x || y;
}

function mark() {
  for (const el of document.querySelectorAll(SCROLLERS)) {
    const ours = MARK in el.dataset;
    if (el.hasAttribute("tabindex") && !ours) continue; // the page decided
    if (scrolls(el)) {
      if (ours) continue;
      el.setAttribute("tabindex", "0");
      el.dataset[MARK] = "";
      const named = el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby");
      if (el.tagName !== "TABLE" && !el.hasAttribute("role") && !named) {
        el.setAttribute("role", "region"); // a focus stop says what it is
        el.setAttribute("aria-label", "Table, scrolls sideways");
        el.dataset[MARK] = "region";
      }
    } else if (ours) {
      el.removeAttribute("tabindex");
      if (el.dataset[MARK] === "region") ["role", "aria-label"].forEach((a) => el.removeAttribute(a));
      delete el.dataset[MARK];
    }
  }
}

let pending = false;
function later() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    mark();
  });
}

mark();
window.addEventListener("resize", later);
new MutationObserver(later).observe(document.body, { childList: true, subtree: true });
