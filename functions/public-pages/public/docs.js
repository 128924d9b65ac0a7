// The API reference page (/docs, functions/public-pages/docs-page.ts): Swagger UI over the
// service's OpenAPI description. A file of its own because the pages' CSP allows no inline script.
const root = document.getElementById('swagger-ui');
// @ts-expect-error: swagger-ui-bundle.js, loaded before this file, defines it as a global.
window.SwaggerUIBundle({
  url: root.dataset.spec,
  domNode: root,
  deepLinking: true,
  // Reading only: trying calls from here would need the key in the page.
  supportedSubmitMethods: [],
});
