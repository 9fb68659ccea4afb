// Glossary words ({% term %}): the definition shows on hover and keyboard focus (app.css); a tap
// or a click toggles it (touch screens have no hover), Escape or a tap elsewhere closes it.
function closeAll(except) {
  for (const open of document.querySelectorAll(".term.open")) {
    if (open !== except) open.classList.remove("open");
  }
}

document.addEventListener("click", (event) => {
  const word = event.target instanceof Element ? event.target.closest(".term") : null;
  closeAll(word);
  if (!word) return;
  event.preventDefault(); // inside a <label>, do not move the focus to its input
  word.classList.toggle("open");
});

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") closeAll(null);
});
