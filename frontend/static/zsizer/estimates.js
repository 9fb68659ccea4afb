// Saved estimates: confirm deletions, keep the comparison to two or three.
const MAX = 3;

document.querySelectorAll("form[data-confirm]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
});

const compare = document.getElementById("compare-form");
if (compare) {
  const status = document.getElementById("compare-status");
  const boxes = [...compare.querySelectorAll('input[name="id"]')];
  const update = () => {
    const n = boxes.filter((b) => b.checked).length;
    status.textContent = n < 2 ? `Choose 2 or ${MAX} (${n} chosen).` : n > MAX ? `At most ${MAX}: untick ${n - MAX}.` : `${n} chosen.`;
  };
  boxes.forEach((b) => b.addEventListener("change", update));
  compare.addEventListener("submit", (event) => {
    const n = boxes.filter((b) => b.checked).length;
    if (event.submitter && event.submitter.id !== "compare-button") return;
    if (n < 2 || n > MAX) {
      event.preventDefault();
      update();
      status.focus?.();
    }
  });
  update();
}
