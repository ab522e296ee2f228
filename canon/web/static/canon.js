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

// Click (or Enter on) a source of a check: only its fragments stay marked in the draft, and its
// side-by-side section opens; click it again to see every fragment.
(function () {
  "use strict";
  function pick(row) {
    var draft = document.getElementById("draft");
    if (!draft) return;
    var number = row.dataset.source;
    var again = row.classList.contains("picked");
    document.querySelectorAll("tr[data-source].picked, #draft mark.picked").forEach(function (e) {
      e.classList.remove("picked");
    });
    draft.classList.toggle("picking", !again);
    if (again) return;
    row.classList.add("picked");
    draft.querySelectorAll("mark[data-sources]").forEach(function (mark) {
      if (mark.dataset.sources.split(" ").indexOf(number) >= 0) mark.classList.add("picked");
    });
    var section = document.getElementById("source-" + number);
    if (section) section.open = true;
    var first = draft.querySelector("mark.picked");
    if (first) first.scrollIntoView({block: "nearest", behavior: "smooth"});
  }
  document.addEventListener("click", function (event) {
    var row = event.target.closest("tr[data-source]");
    if (row && !event.target.closest("a")) pick(row);
  });
  document.addEventListener("keydown", function (event) {
    var row = event.target.closest && event.target.closest("tr[data-source]");
    if (row && event.key === "Enter") pick(row);
  });
})();

// After a submit, bring the result (or the error, or a running check's progress) into view:
// the form stays above it.
(function () {
  "use strict";
  var target = document.getElementById("error") || document.getElementById("result") ||
    document.getElementById("webjob");
  if (!target) return;
  if (target.id !== "error") target.focus({preventScroll: true});
  target.scrollIntoView({block: "start"});
})();

// An audit that is running: its progress, asked for every second; the page reloads when done.
(function () {
  "use strict";
  var audit = document.getElementById("audit");
  if (!audit || audit.dataset.state !== "running") return;
  var bar = document.getElementById("progress");
  var text = document.getElementById("progress-text");
  function poll() {
    fetch(audit.dataset.status, {headers: {Accept: "application/json"}})
      .then(function (answer) { return answer.json(); })
      .then(function (status) {
        if (status.state !== "running") { window.location.reload(); return; }
        bar.max = Math.max(status.total, 1);
        bar.value = status.done;
        text.textContent = text.textContent.replace(/\d+(\D+)\d+(\D+)\d+/,
          status.done + "$1" + status.total + "$2" + status.errors);
        window.setTimeout(poll, 1000);
      })
      .catch(function () { window.setTimeout(poll, 3000); });
  }
  window.setTimeout(poll, 1000);
})();

// A check against the web that is running: its stage and count, asked for twice a second and
// said in the live region; the page reloads to show the result (or the refusal) when done.
(function () {
  "use strict";
  var job = document.getElementById("webjob");
  if (!job) return;
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";  // to the result
  var bar = document.getElementById("webjob-bar");
  var text = document.getElementById("webjob-text");
  var items = job.querySelectorAll("li[data-stage]");
  function show(status) {
    var reached = (status.stages || []).map(function (s) { return s.stage; });
    items.forEach(function (item) {
      var current = item.dataset.stage === status.stage;
      item.classList.toggle("current", current);
      item.classList.toggle("reached", !current && reached.indexOf(item.dataset.stage) >= 0);
      if (current) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    });
    bar.max = Math.max(status.total || 0, 1);
    bar.value = status.done || 0;
    if (text.textContent !== status.message) text.textContent = status.message;
  }
  function poll() {
    fetch(job.dataset.status, {headers: {Accept: "application/json"}})
      .then(function (answer) {
        if (answer.status === 404) { window.location.reload(); return null; }
        return answer.json();
      })
      .then(function (status) {
        if (!status) return;
        show(status);
        if (status.state === "done" || status.state === "failed") {
          window.location.reload();
          return;
        }
        window.setTimeout(poll, 500);
      })
      .catch(function () { window.setTimeout(poll, 2000); });
  }
  window.setTimeout(poll, 300);
})();
