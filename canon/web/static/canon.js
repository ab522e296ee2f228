// Click a shared fragment in one text: its twins in the other text get the class "twin".
(function () {
  "use strict";
  function ids(mark) {
    return (mark.dataset.shingles || "").split(" ").filter(Boolean);
  }
  function clear() {
    document.querySelectorAll("mark.twin, mark.chosen").forEach(function (m) {
      m.classList.remove("twin", "chosen");
    });
  }
  document.addEventListener("click", function (event) {
    var mark = event.target.closest(".text[data-side] mark[data-shingles]");
    clear();
    if (!mark) return;
    var side = mark.closest(".text[data-side]").dataset.side;
    var wanted = new Set(ids(mark));
    mark.classList.add("chosen");
    document.querySelectorAll(".text[data-side] mark[data-shingles]").forEach(function (other) {
      var otherSide = other.closest(".text[data-side]").dataset.side;
      if (otherSide !== side && ids(other).some(function (id) { return wanted.has(id); })) {
        other.classList.add("twin");
      }
    });
    var first = document.querySelector("mark.twin");
    if (first) first.scrollIntoView({block: "nearest", behavior: "smooth"});
  });
})();
