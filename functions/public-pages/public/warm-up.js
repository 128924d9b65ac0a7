// @ts-check
// The first of the signing page's modules to run (app.js imports it before any other), ahead of
// i18n.js, which waits for the language's catalog before anything after it runs: pdf.js is loaded
// and handed the worker the head started (early-start.js), and the first document's bytes once
// the session's answer brings them. So pdf.js reads the document while the page's words load and
// the step is built, rather than after. What the page shows still waits for the session (api.js,
// navigation.js); a page without that document (a kiosk, identity checks first) only loads pdf.js.
import { earlyDocument, takeEarlyWorker } from './early-session.js';
import { openEarly, warmUp } from './viewer.js';

warmUp(takeEarlyWorker());
const first = earlyDocument();
if (first) openEarly(first.key, first.bytes);
