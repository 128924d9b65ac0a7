// @ts-check
// The signing view: the documents with the signer's fields on them, the files to attach, the
// finish card (payment, consent, finish, decline or let someone else sign), and on a phone the
// dock at the bottom.
import { ApiError, api, documentBytes } from './api.js';
import { recalculate } from './calculated.js';
import { main, messageOf, requester, setTitle, showMessage, tools } from './chrome.js';
import { setUpConditions } from './conditions.js';
import { declineDialog } from './dialogs.js';
import { el } from './dom.js';
import { filled, nameOf, renderError, shownMessage, whenErrorsChange } from './field-render.js';
import { dock } from './field-sheet.js';
import { attachmentRow, fieldBox, goTo, guideBar, updateProgress } from './fields.js';
import { t, tEach, tIsolated } from './i18n.js';
import { kiosk, showHandBack } from './kiosk.js';
import { ended } from './navigation.js';
import { endOpening, whenShown } from './opening.js';
import { showDone } from './outcomes.js';
import { paymentStep } from './payment.js';
import { reassignButton } from './reassign.js';
import { readsOnly, roleCard, roleIntro } from './role-card.js';
import { valueProblem } from './rules.js';
import { flushSaves, saveStatusLine } from './saving.js';
import { form, page } from './state.js';
import { openPdf, showPage, takeOpened } from './viewer.js';

export function showSigning() {
  const s = page.state;
  form.current = undefined;
  form.visited.clear();
  const order = new Map(s.documents.map((d, i) => [d.key, i]));
  const pageCount = new Map(s.documents.map((d) => [d.key, d.pages.length]));
  form.models = s.fields.map((f) => ({
    f,
    path: `${f.doc_key}.${f.key}`,
    value: f.value ?? '',
    mine: f.editable,
  }));
  const onPage = (m) => m.f.page >= 1 && m.f.page <= (pageCount.get(m.f.doc_key) ?? 0);
  const byPlace = (a, b) =>
    order.get(a.f.doc_key) - order.get(b.f.doc_key) || a.f.page - b.f.page || a.f.y - b.f.y || a.f.x - b.f.x;
  const placed = form.models.filter(onPage).sort(byPlace);
  const unplaced = form.models.filter((m) => !onPage(m) && m.mine);
  form.mine = [...placed.filter((m) => m.mine), ...unplaced];
  // The service answers the results it computed over what it shows; the page works them out
  // again over the very same values, so a total never lags behind the fields beside it.
  recalculate();
  setUpConditions();

  // Top bar: whether everything is saved, where the signer stands, and the guide (at the bottom
  // of a phone's screen, with the sheet the field in hand is edited in).
  tools.replaceChildren(saveStatusLine());
  const bottom = dock(guideBar(), tools);

  // The sender's label and document names keep their own direction on any page (<bdi>).
  const heading = el(
    'h1',
    { id: 'doc-title', tabindex: '-1' },
    s.bundle.label ? el('bdi', {}, s.bundle.label) : t('sign.view.documentsToSign'),
  );
  const intro = el(
    'section',
    { class: 'card intro', 'aria-labelledby': 'doc-title' },
    s.bundle.is_test ? el('p', { class: 'test-banner' }, t('sign.view.testBanner')) : null,
    heading,
    el('p', {}, readsOnly(s) ? roleIntro(s) : introOf(s)),
    // Nothing to fill for an approver or a viewer: no legend of fields, no hint to go through them.
    ...(readsOnly(s) ? [] : legendAndHint()),
  );

  const docs = s.documents.map((doc) => {
    const pdf = takeOpened(doc.key) ?? documentBytes(doc.key).then((bytes) => openPdf(bytes, doc.file_url));
    pdf.catch(() => undefined);
    const section = el(
      'section',
      { class: 'doc', 'aria-label': doc.name },
      el(
        'h2',
        { class: 'doc-title' },
        el('bdi', {}, doc.name),
        el('span', { class: 'doc-pages' }, t('sign.view.pages', { count: doc.pages.length })),
      ),
    );
    // The same words on every page but its number: each message translated once for the document.
    const pages = doc.pages.length;
    const frameLabel = tEach('sign.view.docPageOf', { doc: doc.name, pages }, ['page']);
    const numberLine = tEach('sign.view.pageOf', { pages }, ['page']);
    const loading = t('sign.view.loadingPage');
    doc.pages.forEach((p, i) => {
      const number = i + 1;
      const frame = el('div', { class: 'page', role: 'group', 'aria-label': frameLabel({ page: number }) });
      frame.style.aspectRatio = `${p.width} / ${p.height}`;
      const canvas = el('canvas', { class: 'page-canvas', 'aria-hidden': 'true' });
      frame.append(canvas, el('span', { class: 'page-loading', 'aria-hidden': 'true' }, loading));
      for (const m of placed) if (m.f.doc_key === doc.key && m.f.page === number) frame.append(fieldBox(m));
      // The first page drawn (or failed) ends the page's hold on its paint (opening.js).
      showPage(
        pdf,
        number,
        frame,
        canvas,
        () => {
          frame.classList.add('failed');
          endOpening();
        },
        endOpening,
      );
      section.append(
        frame,
        el('p', { class: 'page-number', 'aria-hidden': 'true' }, numberLine({ page: number })),
      );
    });
    return section;
  });

  const attachments =
    unplaced.length > 0
      ? el(
          'section',
          { class: 'card attachments', 'aria-labelledby': 'att-title' },
          el('h2', { id: 'att-title' }, t('sign.view.filesToAttach')),
          el('ul', { class: 'attachment-list' }, unplaced.map(attachmentRow)),
        )
      : null;

  main.replaceChildren(intro, ...docs, attachments ?? '', readsOnly(s) ? roleCard() : finishCard(), bottom);
  setTitle(s.bundle.label || t('page.title'));
  updateProgress();
  whenShown(() => heading.focus());
}

/**
 * The intro sentence, its names isolated (i18n.js, tIsolated); the count is said by the message's
 * plural form, so it is filled first.
 */
function introOf(s) {
  const count = s.documents.length;
  return tIsolated('sign.view.intro', { requester: requester(), name: s.packet.name }, { count });
}

function finishCard() {
  const consent = el('input', { type: 'checkbox', id: 'consent', 'aria-describedby': 'consent-error' });
  const consentError = el('span', { class: 'field-error block', id: 'consent-error', role: 'alert' });
  const summary = el('div', { class: 'finish-summary', id: 'finish-summary', role: 'alert' });
  const finish = el(
    'button',
    { type: 'button', class: 'btn primary large', id: 'finish-button' },
    t('sign.view.finish'),
  );
  const decline = el('button', { type: 'button', class: 'btn link danger' }, t('sign.view.decline'));
  consent.addEventListener('change', () => {
    if (consent.checked) consentError.textContent = '';
  });
  finish.addEventListener('click', () => complete(finish, consent, consentError, summary));
  decline.addEventListener('click', () => declineSigning(summary));
  return el(
    'section',
    { class: 'card finish', id: 'finish', 'aria-labelledby': 'finish-title' },
    el('h2', { id: 'finish-title' }, t('sign.view.finishTitle')),
    page.state.payment ? paymentStep() : '',
    summary,
    el('div', { class: 'consent' }, consent, el('label', { for: 'consent' }, t('sign.consent'))),
    consentError,
    el(
      'div',
      { class: 'finish-actions' },
      finish,
      decline,
      page.state.can_reassign ? reassignButton() : null,
    ),
  );
}

async function complete(button, consent, consentError, summary) {
  listed = '';
  summary.replaceChildren();
  if (page.state.payment?.required) {
    summary.append(el('p', {}, t('sign.view.payFirst')));
    document.getElementById('pay-button')?.focus();
    return;
  }
  await flushSaves();
  // A value still being typed has its message held back until the field is left: show it now.
  for (const m of form.mine) {
    const problem = valueProblem(m.f, m.value, t);
    if (problem && !m.clientError) {
      m.clientError = problem;
      renderError(m);
    }
  }
  const missing = form.mine.filter((m) => m.f.required && !filled(m) && !shownMessage(m));
  for (const m of missing) {
    m.requiredError = t('sign.view.required');
    renderError(m);
  }
  const problems = fieldProblems();
  if (problems.length > 0) {
    showProblems(summary, problems);
    goTo(problems[0]);
    return;
  }
  if (!consent.checked) {
    consentError.textContent = t('sign.view.consentMissing');
    consent.focus();
    return;
  }
  button.disabled = true;
  button.textContent = t('sign.view.finishing');
  try {
    page.state = await api.complete();
    page.justFinished = true;
    if (kiosk) showHandBack();
    else showDone();
  } catch (err) {
    button.disabled = false;
    button.textContent = t('sign.view.finish');
    if (ended(err)) return;
    if (err instanceof ApiError && err.status === 400) {
      const refused = err.fields
        .map((e) => [form.models.find((m) => m.path === e.field), e])
        .filter(([m]) => m);
      for (const [m, e] of refused) {
        m.serverError = e.message;
        renderError(m);
      }
      if (refused.length > 0) {
        summary.append(el('p', {}, err.message));
        goTo(refused[0][0]);
        return;
      }
    }
    summary.append(el('p', {}, messageOf(err)));
  }
}

/** The signer's fields that show a message: the required ones left empty first, then the others. */
function fieldProblems() {
  const shown = form.mine.filter(shownMessage);
  return [...shown.filter((m) => m.requiredError), ...shown.filter((m) => !m.requiredError)];
}

/** The fields the summary lists now; set when it lists any, so it follows them as they change. */
let listed = '';

/** The finish summary: how many fields need attention, each a button to it with its message. */
function showProblems(summary, problems) {
  listed = summaryKey(problems);
  summary.replaceChildren(
    el('p', {}, t('sign.view.attention', { count: problems.length })),
    el(
      'ul',
      {},
      problems.map((m) =>
        el(
          'li',
          {},
          // The sender's label isolated: its own direction, the separator after it in the page's.
          el(
            'button',
            { type: 'button', class: 'btn link', onclick: () => goTo(m) },
            el('bdi', {}, nameOf(m)),
          ),
          // The field's name is the button before it; the message keeps the language's separator.
          t('sign.view.problem', {
            field: '',
            message: shownMessage(m),
          }),
        ),
      ),
    ),
  );
}

/** What the summary says, as one string: a new one is drawn only when it differs. */
const summaryKey = (problems) => problems.map((m) => `${m.path}\n${shownMessage(m)}`).join('\n');

// Once shown, the summary follows the fields: a field put right leaves it (and the count drops),
// and when none is left it goes. Redrawn only when what it says changes, as it is an alert.
whenErrorsChange(() => {
  if (!listed) return;
  const summary = document.getElementById('finish-summary');
  if (!summary) return;
  const problems = fieldProblems();
  if (summaryKey(problems) === listed) return;
  if (problems.length === 0) {
    listed = '';
    summary.replaceChildren();
  } else showProblems(summary, problems);
});

async function declineSigning(summary) {
  const reason = await declineDialog({ requester: page.state.bundle.requester_name });
  if (!reason) return;
  try {
    page.state = await api.decline(reason);
    if (kiosk) return showHandBack();
    showMessage(t('sign.reason.declinedTitle'), t('sign.done.declinedText', { requester: requester() }), {
      tone: 'stop',
    });
  } catch (err) {
    if (ended(err)) return;
    summary.replaceChildren(el('p', {}, messageOf(err)));
  }
}

/** The legend of the field colours and the hint to go from field to field: a signer's. */
function legendAndHint() {
  return [
    el(
      'ul',
      { class: 'legend', 'aria-label': t('sign.view.legend') },
      el('li', {}, el('span', { class: 'swatch mine', 'aria-hidden': 'true' }), t('sign.view.legendMine')),
      el(
        'li',
        {},
        el('span', { class: 'swatch required', 'aria-hidden': 'true' }),
        t('sign.view.legendRequired'),
      ),
      el(
        'li',
        {},
        el('span', { class: 'swatch theirs', 'aria-hidden': 'true' }),
        t('sign.view.legendTheirs'),
      ),
    ),
    el('p', { class: 'hint' }, t('sign.view.hint')),
  ];
}
