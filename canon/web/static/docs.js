// Starts Swagger UI on the API documentation page (no inline script: the page's policy forbids it).
window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({ url: root.dataset.openapi, dom_id: "#swagger-ui" });
});
