// The API reference page (/docs, functions/public-pages/docs-page.ts): Swagger UI over the
// service's OpenAPI description. A file of its own because the pages' CSP allows no inline script.
const root = document.getElementById('swagger-ui');

/**
 * The page sends no request, so the key has nowhere to go: without "Try it out", Swagger UI's
 * Authorize button (and the padlock on each operation) would only invite a reader to type their
 * key into a form that does nothing with it.
 */
const ReadingOnly = () => ({
  wrapComponents: {
    authorizeBtn: () => () => null,
    authorizeOperationBtn: () => () => null,
    // The servers menu only picks where "Try it out" sends; the description names the one server.
    ServersContainer: () => () => null,
  },
});

// @ts-expect-error: swagger-ui-bundle.js, loaded before this file, defines it as a global.
window.SwaggerUIBundle({
  url: root.dataset.spec,
  domNode: root,
  // Deep links put a link inside each operation's toggle button: a control in a control, which
  // screen readers and keyboards cannot tell apart (WCAG 4.1.2), and a target 19 px high.
  deepLinking: false,
  // Reading only: trying calls from here would need the key in the page.
  supportedSubmitMethods: [],
  plugins: [ReadingOnly],
});
