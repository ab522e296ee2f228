// Starts Swagger UI on the API documentation page (no inline script: the page's policy forbids it).
window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({ url: root.dataset.openapi, dom_id: "#swagger-ui" });
  // Swagger UI names each operation's button with an aria-label that differs from the text it
  // shows; without it the button is named by what it shows, as a screen reader reads it.
  function relabel() {
    root.querySelectorAll("button.opblock-summary-control[aria-label]").forEach(function (b) {
      b.removeAttribute("aria-label");
    });
  }
  new MutationObserver(relabel).observe(root, { childList: true, subtree: true });
});
