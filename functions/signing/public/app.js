// The signing page: opens a session with the link in the address bar, shows the identity checks
// the sender asked for, then the documents with this signer's fields on them; saves as the
// signer goes, and finishes with their consent. Everything goes through the signer API
// (docs/signer-api.md); nothing here is trusted by the service.
import { ApiError, api, documentBytes, hasSession, openSession } from './api.js';
import { keepBubblesInView, placeBubbles } from './bubbles.js';
import { choicesDialog, declineDialog, signatureDialog } from './dialogs.js';
import { announce, el, formatDate, reducedMotion, uid } from './dom.js';
import { nextField } from './guide.js';
import { acceptOf, attachmentHint, attachmentProblem, inputHints, isFilled, valueProblem } from './rules.js';
import { openPdf, showPage } from './viewer.js';

const root = document.documentElement;
const main = document.getElementById('main');
const tools = document.getElementById('tools');

/** The latest state answered by the service. */
let state;

// ---------------------------------------------------------------------------------------------
// Brand and page chrome

function luminance(hex) {
  const [r, g, b] = [1, 3, 5]
    .map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The sender's color: buttons take it, with text that stays readable on it. */
function applyBrand() {
  const color = root.dataset.brandColor;
  if (!color || !/^#[0-9a-f]{6}$/i.test(color)) return;
  const l = luminance(color);
  root.style.setProperty('--brand', color);
  root.style.setProperty('--on-brand', l > 0.36 ? '#111827' : '#ffffff');
  // Links and outlines on white need 4.5:1; a light brand color keeps the default for those.
  if (l <= 0.18) root.style.setProperty('--brand-text', color);
}

const requester = () => state?.bundle.requester_name || 'The sender';
const docLabel = () => state?.bundle.label || 'these documents';

function setTitle(text) {
  const brand = root.dataset.brandName;
  document.title = brand ? `${text} · ${brand}` : text;
}

/** A full-page message: clear pages for links that cannot be signed, and the end. */
function showMessage(title, text, { tone = 'info', extra } = {}) {
  tools.replaceChildren();
  const heading = el('h1', { id: 'msg-title', tabindex: '-1' }, title);
  main.replaceChildren(
    el(
      'section',
      { class: `card message ${tone}`, 'aria-labelledby': 'msg-title' },
      el('div', { class: `msg-icon ${tone}`, 'aria-hidden': 'true' }),
      heading,
      el('p', {}, text),
      extra,
    ),
  );
  setTitle(title);
  heading.focus();
}

const retryButton = () =>
  el('button', { type: 'button', class: 'btn primary', onclick: () => start() }, 'Try again');

function failure(err) {
  if (err instanceof ApiError && (err.status === 404 || err.status === 400)) {
    showMessage(
      'This link does not work',
      'This signing link is not valid or has expired. If you still need to sign, ask the sender for a new link.',
      { tone: 'stop' },
    );
  } else if (err instanceof ApiError && err.status === 410) {
    showMessage(
      'This link was already used',
      'A signing link opened from another site works once. Go back to the page you came from to start signing again.',
      { tone: 'stop' },
    );
  } else if (err instanceof ApiError && err.status === 0) {
    showMessage('You seem to be offline', 'Check your connection, then try again.', {
      tone: 'stop',
      extra: retryButton(),
    });
  } else {
    showMessage('Something went wrong', 'The page could not be loaded. Try again in a moment.', {
      tone: 'stop',
      extra: retryButton(),
    });
  }
}

const REASONS = {
  not_your_turn: () => [
    'It isn’t your turn yet',
    `${requester()} asked others to sign “${docLabel()}” before you. You will get a message when it is your turn.`,
    'wait',
  ],
  completed: () => [
    'You have signed',
    `You signed “${docLabel()}”${state.completed_at ? ` on ${formatDate(state.completed_at)}` : ''}. You will get a copy when everyone has signed.`,
    'ok',
  ],
  declined: () => [
    'You declined to sign',
    `You declined to sign “${docLabel()}”. ${requester()} was told.`,
    'stop',
  ],
  cancelled: () => [
    'This signing request was cancelled',
    `“${docLabel()}” was cancelled, so there is nothing for you to sign. Contact ${requester()} if you have questions.`,
    'stop',
  ],
  expired: () => [
    'This signing request has expired',
    `“${docLabel()}” can no longer be signed. If you still need to sign it, ask ${requester()} to send it again.`,
    'stop',
  ],
  complete: () => ['These documents are already signed', `Everyone has signed “${docLabel()}”.`, 'ok'],
  failed: () => [
    'These documents cannot be signed',
    `Something went wrong with “${docLabel()}”. Contact ${requester()}.`,
    'stop',
  ],
};

function showReason() {
  const [title, text, tone] = (REASONS[state.reason] ?? REASONS.failed)();
  showMessage(title, text, { tone });
}

function safeRedirect(url) {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function showDone() {
  const target = safeRedirect(state.redirect_url);
  showMessage(
    'You’re done',
    `Thank you, ${state.packet.name}. You signed “${docLabel()}”. ${requester()} will be told, and you will get a copy of the signed documents when everyone has signed.`,
    { tone: 'ok', extra: target ? el('p', { class: 'hint' }, 'Taking you onward…') : null },
  );
  if (target) location.assign(target);
}

// ---------------------------------------------------------------------------------------------
// Start and routing

async function start() {
  main.replaceChildren(el('p', { class: 'loading', role: 'status' }, 'Loading your documents…'));
  try {
    if (!hasSession()) await openSession();
    state = await api.state();
    route();
  } catch (err) {
    failure(err);
  }
}

/** Reads the state again after the service refused a step (the bundle may have ended meanwhile). */
async function reload() {
  try {
    state = await api.state();
    route();
  } catch (err) {
    failure(err);
  }
}

const authPending = () => state.auth.required.filter((s) => !state.auth.passed.includes(s));

function route() {
  stopCamera();
  if (!state.can_sign) {
    if (state.reason === 'completed' && state.redirect_url && justFinished) return showDone();
    return showReason();
  }
  if (authPending().length > 0) return showAuth();
  return showSigning();
}

let justFinished = false;

// ---------------------------------------------------------------------------------------------
// Identity checks

const STEP_NAMES = { sms: 'Code by text message', selfie: 'A photo of you', id: 'Photos of your ID' };
let camera;

function stopCamera() {
  for (const track of camera?.getTracks() ?? []) track.stop();
  camera = undefined;
}

/**
 * Answers after which the page cannot go on as it is: the bundle changed (409: read the state
 * again, which shows why), or the link and session are gone (404, 410: the clear page).
 */
function ended(err) {
  if (!(err instanceof ApiError)) return false;
  if (err.status === 409) {
    reload();
    return true;
  }
  if (err.status === 404 || err.status === 410) {
    failure(err);
    return true;
  }
  return false;
}

function messageOf(err) {
  return err instanceof ApiError
    ? (err.fields[0]?.message ?? err.message)
    : 'Something went wrong; try again.';
}

function showAuth() {
  tools.replaceChildren();
  const pending = authPending();
  const heading = el('h1', { id: 'auth-title', tabindex: '-1' }, 'Confirm it’s you');
  const steps = el(
    'ol',
    { class: 'steps' },
    state.auth.required.map((s) => {
      const done = state.auth.passed.includes(s);
      const now = s === pending[0];
      return el(
        'li',
        { class: done ? 'done' : now ? 'now' : '', 'aria-current': now ? 'step' : undefined },
        el('span', { class: 'step-name' }, STEP_NAMES[s]),
        el('span', { class: 'step-state' }, done ? 'Done' : now ? 'Now' : 'Next'),
      );
    }),
  );
  const step = pending[0];
  main.replaceChildren(
    el(
      'section',
      { class: 'card auth', 'aria-labelledby': 'auth-title' },
      heading,
      el(
        'p',
        {},
        `${requester()} asked us to check that it is you, ${state.packet.name}, before you see “${docLabel()}”.`,
      ),
      steps,
      step === 'sms' ? smsStep() : step === 'selfie' ? selfieStep() : idStep(),
    ),
  );
  setTitle('Confirm it’s you');
  heading.focus();
}

function smsStep() {
  const status = el('p', { class: 'step-status', role: 'status' });
  const codeId = uid('code');
  const errId = uid('err');
  const error = el('p', { class: 'field-error block', id: errId });
  const code = el('input', {
    id: codeId,
    class: 'input code',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    maxlength: 6,
    'aria-describedby': errId,
  });
  const confirm = el('button', { type: 'submit', class: 'btn primary' }, 'Confirm');
  const form = el(
    'form',
    {
      class: 'code-form',
      hidden: true,
      onsubmit: async (e) => {
        e.preventDefault();
        const value = code.value.replace(/\s/g, '');
        if (!/^\d{6}$/.test(value)) {
          error.textContent = 'Enter the 6 digits of the code.';
          code.setAttribute('aria-invalid', 'true');
          return code.focus();
        }
        confirm.disabled = true;
        try {
          state = await api.verifySms(value);
          announce('Code confirmed.');
          route();
        } catch (err) {
          if (ended(err)) return;
          error.textContent = messageOf(err);
          code.setAttribute('aria-invalid', 'true');
          code.select();
        } finally {
          confirm.disabled = false;
        }
      },
    },
    el('label', { for: codeId, class: 'label' }, 'The 6-digit code'),
    el('div', { class: 'row' }, code, confirm),
    error,
  );
  const send = el('button', { type: 'button', class: 'btn primary' }, 'Text me a code');
  send.addEventListener('click', async () => {
    send.disabled = true;
    try {
      state = await api.sendSms();
      status.textContent = `We sent a code to ${state.auth.sms_phone_hint ?? 'your phone'}. It works for 10 minutes.`;
      form.hidden = false;
      send.textContent = 'Send a new code';
      send.classList.remove('primary');
      code.focus();
    } catch (err) {
      if (ended(err)) return;
      status.textContent =
        err instanceof ApiError && err.status === 429
          ? `${err.message} (${err.retryAfter ?? 30} s)`
          : messageOf(err);
    } finally {
      send.disabled = false;
    }
  });
  return el(
    'div',
    { class: 'step' },
    el('h2', {}, STEP_NAMES.sms),
    el('p', {}, `We will text a 6-digit code to your phone ${state.auth.sms_phone_hint ?? ''}.`),
    send,
    status,
    form,
  );
}

const IMAGE_TYPES = ['image/jpeg', 'image/png'];
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

function imageProblem(file) {
  if (!file) return 'Choose a photo.';
  if (!IMAGE_TYPES.includes(file.type)) return 'Choose a JPEG or PNG photo.';
  if (file.size > MAX_IMAGE_BYTES) return 'The photo is larger than 5 MB.';
  return undefined;
}

function selfieStep() {
  const error = el('p', { class: 'field-error block', role: 'alert' });
  const status = el('p', { class: 'step-status', role: 'status' });
  const fileId = uid('selfie');
  const file = el('input', {
    type: 'file',
    id: fileId,
    class: 'file',
    accept: 'image/jpeg,image/png',
    capture: 'user',
  });
  const video = el('video', {
    class: 'camera',
    autoplay: true,
    playsinline: true,
    muted: true,
    hidden: true,
  });
  video.setAttribute('aria-label', 'Camera preview');
  const useCamera = el('button', { type: 'button', class: 'btn primary' }, 'Use my camera');
  const snap = el('button', { type: 'button', class: 'btn primary', hidden: true }, 'Take photo');
  if (!navigator.mediaDevices?.getUserMedia) useCamera.hidden = true;

  async function upload(blob) {
    const problem = imageProblem(blob);
    if (problem) {
      error.textContent = problem;
      return;
    }
    error.textContent = '';
    status.textContent = 'Sending your photo…';
    try {
      state = await api.selfie(blob);
      announce('Photo accepted.');
      route();
    } catch (err) {
      if (ended(err)) return;
      status.textContent = '';
      error.textContent = messageOf(err);
    }
  }
  useCamera.addEventListener('click', async () => {
    try {
      camera = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user' }, audio: false });
      video.srcObject = camera;
      video.hidden = false;
      snap.hidden = false;
      useCamera.hidden = true;
      snap.focus();
    } catch {
      error.textContent = 'The camera could not be opened. Choose a photo instead.';
    }
  });
  snap.addEventListener('click', () => {
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth || 640;
    canvas.height = video.videoHeight || 480;
    canvas.getContext('2d').drawImage(video, 0, 0, canvas.width, canvas.height);
    stopCamera();
    video.hidden = true;
    snap.hidden = true;
    canvas.toBlob((blob) => upload(blob), 'image/jpeg', 0.9);
  });
  file.addEventListener('change', () => upload(file.files[0]));
  return el(
    'div',
    { class: 'step' },
    el('h2', {}, STEP_NAMES.selfie),
    el(
      'p',
      {},
      'Take a photo of your face with your camera, or choose one. It is kept with the signed documents.',
    ),
    el('div', { class: 'row wrap' }, useCamera, snap),
    video,
    el('label', { for: fileId, class: 'label' }, 'Or choose a photo (JPEG or PNG, up to 5 MB)'),
    file,
    error,
    status,
  );
}

function idStep() {
  const error = el('p', { class: 'field-error block', role: 'alert' });
  const status = el('p', { class: 'step-status', role: 'status' });
  const input = (side) => {
    const id = uid(side);
    const node = el('input', {
      type: 'file',
      id,
      class: 'file',
      accept: 'image/jpeg,image/png',
      capture: 'environment',
    });
    return [
      el('label', { for: id, class: 'label' }, `The ${side} of your ID (JPEG or PNG, up to 5 MB)`),
      node,
    ];
  };
  const [frontLabel, front] = input('front');
  const [backLabel, back] = input('back');
  const submit = el('button', { type: 'submit', class: 'btn primary' }, 'Send photos');
  return el(
    'form',
    {
      class: 'step',
      onsubmit: async (e) => {
        e.preventDefault();
        const [f, b] = [front.files[0], back.files[0]];
        const problem = imageProblem(f) ?? imageProblem(b);
        if (problem) {
          error.textContent = `${f ? 'Back' : 'Front'}: ${problem}`;
          return;
        }
        error.textContent = '';
        status.textContent = 'Sending your photos…';
        submit.disabled = true;
        try {
          state = await api.id(f, b);
          announce('ID photos accepted.');
          route();
        } catch (err) {
          if (ended(err)) return;
          status.textContent = '';
          error.textContent = messageOf(err);
        } finally {
          submit.disabled = false;
        }
      },
    },
    el('h2', {}, STEP_NAMES.id),
    el('p', {}, 'Photos of the front and back of your ID card or driver’s license.'),
    frontLabel,
    front,
    backLabel,
    back,
    submit,
    error,
    status,
  );
}

// ---------------------------------------------------------------------------------------------
// Fields

const KIND_NAMES = {
  sig: 'Signature',
  ini: 'Initials',
  snm: 'Signer name',
  sdt: 'Date signed',
  inp: 'Text',
  txt: 'Text',
  dat: 'Date',
  chk: 'Checkbox',
  cbg: 'Options',
  sel: 'Choice',
  att: 'Attachment',
  apr: 'Approval',
};

/** One field on the page: the service's view of it and the signer's current value. */
let models = [];
/** This signer's fields in the order the guide visits them. */
let mine = [];
let current;
/** The fields the signer has been to: "Next field" offers an optional one only once (guide.js). */
const visited = new Set();
/** Drawn marks of this visit (the service keeps them, but does not send them back). */
const marks = new Map();
/** The last signature and initials applied, offered again for the next such field. */
const lastMark = { sig: undefined, ini: undefined };

const nameOf = (m) => m.f.label || KIND_NAMES[m.f.kind] || 'Field';
const filled = (m) => isFilled(m.f, m.value);

function initials(name) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase())
    .join('');
}

// The bubbles of every field showing an error and of the field in hand stay in view (bubbles.js).
keepBubblesInView(() => [...mine.filter((m) => m.err?.textContent).map((m) => m.box), current?.box]);

/** Shows or clears the message under a field; the service's word wins over the page's. */
function renderError(m) {
  const text = m.serverError || m.clientError || m.requiredError || '';
  if (m.err) m.err.textContent = text;
  m.box?.classList.toggle('invalid', Boolean(text));
  placeBubbles([m.box]);
  if (m.control) {
    if (text) m.control.setAttribute('aria-invalid', 'true');
    else m.control.removeAttribute('aria-invalid');
  }
}

function renderFilled(m) {
  m.box?.classList.toggle('filled', filled(m));
  if (filled(m) && m.requiredError) {
    m.requiredError = undefined;
    renderError(m);
  }
}

/** The text the signature button shows: the mark, or what to do. */
function renderMark(m) {
  const button = m.control;
  button.replaceChildren();
  const image = marks.get(m.path);
  if (image) {
    button.append(el('img', { src: image, alt: '' }));
  } else if (m.value.startsWith('typed:')) {
    button.append(el('span', { class: 'typed' }, m.value.slice(6)));
  } else if (m.value === 'drawn') {
    button.append(el('span', { class: 'typed' }, state.packet.name));
  } else {
    button.append(el('span', { class: 'cta' }, m.f.kind === 'ini' ? 'Initial' : 'Sign'));
  }
  const done = m.value ? ' (done; press to change)' : '';
  button.setAttribute('aria-label', `${nameOf(m)}${done}`);
}

function renderChoices(m) {
  m.control.textContent = m.value ? m.value.split('|').join(', ') : 'Choose…';
  m.control.setAttribute(
    'aria-label',
    `${nameOf(m)}: ${m.value ? m.value.split('|').join(', ') : 'none chosen'}`,
  );
}

function renderAttachment(m) {
  m.fileName.textContent = m.value ? m.value : 'No file yet';
  m.control.textContent = m.value ? 'Replace file' : 'Choose file';
  m.control.setAttribute(
    'aria-label',
    `${nameOf(m)}: ${m.control.textContent}${m.value ? ` (${m.value})` : ''}`,
  );
}

// Saving: values go to the service a moment after the signer stops typing, at once for other
// changes, in order, one request at a time.
const pending = new Map();
let saveTimer;
let saving = Promise.resolve();
let saveStatus;

function setSaveStatus(text, tone = '') {
  if (!saveStatus) return;
  saveStatus.textContent = text;
  saveStatus.className = `save-status ${tone}`;
}

function queueSave(m, entry, delay) {
  pending.set(m.path, { m, entry });
  setSaveStatus('Saving…');
  clearTimeout(saveTimer);
  if (delay > 0) saveTimer = setTimeout(flushSaves, delay);
  else flushSaves();
}

function flushSaves() {
  clearTimeout(saveTimer);
  if (pending.size === 0) return saving;
  const batch = [...pending.values()];
  pending.clear();
  saving = saving.then(() => send(batch));
  return saving;
}

async function send(batch, retried = false) {
  const values = batch.map(({ m, entry }) => ({ doc_key: m.f.doc_key, field_key: m.f.key, ...entry }));
  try {
    await api.saveValues(values);
    for (const { m } of batch) {
      m.serverError = undefined;
      m.saveFailed = false;
      renderError(m);
    }
    if (pending.size === 0) setSaveStatus('All changes saved', 'ok');
  } catch (err) {
    if (err instanceof ApiError && err.status === 400 && err.fields.length > 0) {
      // Nothing of the batch was saved: mark the refused values, send the others again.
      const refused = new Set();
      for (const e of err.fields) {
        const m = models.find((x) => x.path === e.field);
        if (!m) continue;
        refused.add(m);
        m.serverError = e.message;
        m.saveFailed = true;
        renderError(m);
      }
      const rest = batch.filter(({ m }) => !refused.has(m));
      if (rest.length > 0 && !retried) await send(rest, true);
      setSaveStatus('Some values were not saved: see the marked fields.', 'bad');
      announce('Some values were not saved.');
    } else if (ended(err)) {
      for (const { m } of batch) m.saveFailed = true;
    } else {
      for (const { m, entry } of batch) {
        m.saveFailed = true;
        if (!pending.has(m.path)) pending.set(m.path, { m, entry });
      }
      setSaveStatus('Not saved yet: retrying…', 'bad');
      clearTimeout(saveTimer);
      saveTimer = setTimeout(flushSaves, 4000);
    }
  }
}

/** The signer changed a value: check it, show the outcome, save it when it is valid. */
function edit(m, value, { delay = 0, quiet = false } = {}) {
  m.value = value;
  m.serverError = undefined;
  const problem = valueProblem(m.f, value);
  // While typing, a message appears only once the field is left; one shown already updates.
  if (!quiet || !problem || m.clientError) m.clientError = problem;
  renderError(m);
  renderFilled(m);
  updateProgress();
  if (problem) {
    pending.delete(m.path);
    return;
  }
  queueSave(m, { value }, delay);
}

async function saveNow(m, entry) {
  queueSave(m, entry, 0);
  await saving;
  return !m.saveFailed;
}

function setCurrent(m) {
  if (current === m) return;
  current?.box?.classList.remove('current');
  current = m;
  visited.add(m);
  m.box?.classList.add('current');
  placeBubbles([m.box]);
  updateProgress();
}

function scrollToBox(box) {
  box.scrollIntoView({ block: 'center', behavior: reducedMotion() ? 'auto' : 'smooth' });
}

function goTo(m) {
  m.control.focus({ preventScroll: true });
  scrollToBox(m.box);
  setCurrent(m);
}

function goToFinish() {
  const finish = document.getElementById('finish');
  const consent = document.getElementById('consent');
  scrollToBox(finish);
  (consent.checked ? document.getElementById('finish-button') : consent).focus({ preventScroll: true });
}

/**
 * The guide: required fields left first, then optional ones not yet visited (guide.js), else
 * finishing.
 */
function next() {
  const target = nextField(mine, current, filled, visited);
  if (target) goTo(target);
  else goToFinish();
}

let progressText;
let nextButton;

function updateProgress() {
  if (!progressText) return;
  const required = mine.filter((m) => m.f.required);
  const done = required.filter(filled).length;
  progressText.replaceChildren(
    el('strong', {}, `${done}/${required.length}`),
    el('span', { class: 'wide-only' }, ' required fields done'),
  );
  progressText.setAttribute('aria-label', `${done} of ${required.length} required fields done`);
  const more = nextField(mine, current, filled, visited);
  nextButton.textContent = !more ? 'Go to finish' : current ? 'Next field' : 'Start';
  document.getElementById('finish')?.classList.toggle('ready', done === required.length);
}

function controlFor(m, errId) {
  const f = m.f;
  const common = {
    class: 'ctl',
    'aria-label': nameOf(m),
    'aria-required': f.required ? 'true' : undefined,
    'aria-describedby': errId,
  };
  switch (f.kind) {
    case 'inp': {
      const hints = inputHints(f);
      const c = el('input', {
        ...common,
        type: hints.type,
        inputmode: hints.inputmode,
        autocomplete: hints.autocomplete ?? 'off',
        value: m.value,
        placeholder: f.label || undefined,
        maxlength: f.v_max != null ? Math.floor(f.v_max) : undefined,
      });
      c.addEventListener('input', () => edit(m, c.value, { delay: 700, quiet: true }));
      c.addEventListener('change', () => edit(m, c.value));
      c.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          next();
        }
      });
      return c;
    }
    case 'txt': {
      const c = el('textarea', {
        ...common,
        value: m.value,
        placeholder: f.label || undefined,
        maxlength: f.v_max != null ? Math.floor(f.v_max) : undefined,
      });
      c.addEventListener('input', () => edit(m, c.value, { delay: 700, quiet: true }));
      c.addEventListener('change', () => edit(m, c.value));
      return c;
    }
    case 'dat': {
      const c = el('input', { ...common, type: 'date', value: m.value });
      c.addEventListener('change', () => edit(m, c.value));
      return c;
    }
    case 'chk': {
      const c = el('input', { ...common, type: 'checkbox', checked: m.value === 'true' });
      c.addEventListener('change', () => edit(m, c.checked ? 'true' : 'false'));
      return c;
    }
    case 'apr': {
      const c = el('input', { ...common, type: 'checkbox', checked: m.value === 'true' });
      c.addEventListener('change', () => edit(m, c.checked ? 'true' : 'false'));
      return c;
    }
    case 'sel': {
      const c = el(
        'select',
        common,
        el('option', { value: '' }, 'Choose…'),
        f.options.map((o) => el('option', { value: o, selected: o === m.value }, o)),
      );
      c.value = m.value;
      c.addEventListener('change', () => edit(m, c.value));
      return c;
    }
    case 'cbg': {
      const c = el('button', { ...common, type: 'button', 'aria-haspopup': 'dialog' });
      c.addEventListener('click', async () => {
        const value = await choicesDialog({
          label: nameOf(m),
          options: f.options,
          value: m.value,
          required: f.required,
        });
        if (value !== null) {
          edit(m, value);
          renderChoices(m);
        }
        c.focus();
      });
      return c;
    }
    case 'sig':
    case 'ini': {
      const c = el('button', { ...common, type: 'button', 'aria-haspopup': 'dialog' });
      c.addEventListener('click', () => sign(m));
      return c;
    }
    case 'att': {
      const c = el('button', { ...common, type: 'button' });
      return c;
    }
    default:
      return el('span', { class: 'ctl' });
  }
}

async function sign(m) {
  const kind = m.f.kind;
  let result;
  try {
    result = await signatureDialog({
      kind,
      label: m.f.label,
      suggestion: kind === 'ini' ? initials(state.packet.name) : state.packet.name,
      previous: lastMark[kind],
    });
  } catch {
    m.clientError = 'The drawing pad could not be opened; reload the page.';
    renderError(m);
    return;
  }
  m.control.focus();
  if (!result) return;
  const previous = m.value;
  m.value = result.image ? 'drawn' : `typed:${result.typed}`;
  if (result.image) marks.set(m.path, result.image);
  else marks.delete(m.path);
  renderMark(m);
  renderFilled(m);
  updateProgress();
  const ok = await saveNow(m, result.image ? { image: result.image } : { value: m.value });
  if (ok) {
    lastMark[kind] = result;
    announce(`${nameOf(m)} added.`);
  } else {
    m.value = previous;
    marks.delete(m.path);
    renderMark(m);
    renderFilled(m);
    updateProgress();
  }
}

async function attach(m, file) {
  if (!file) return;
  const problem = attachmentProblem(m.f, file);
  m.serverError = undefined;
  m.clientError = problem;
  renderError(m);
  if (problem) return;
  m.control.disabled = true;
  setSaveStatus('Uploading…');
  try {
    const fresh = await api.attach(m.f.doc_key, m.f.key, file);
    const field = fresh.fields.find((x) => x.doc_key === m.f.doc_key && x.key === m.f.key);
    m.value = field?.value ?? file.name;
    renderAttachment(m);
    renderFilled(m);
    updateProgress();
    setSaveStatus('All changes saved', 'ok');
    announce(`${file.name} attached.`);
  } catch (err) {
    if (ended(err)) return;
    m.serverError = messageOf(err);
    renderError(m);
    setSaveStatus('The file was not attached.', 'bad');
  } finally {
    m.control.disabled = false;
  }
}

/** What another signer's field (or one the service fills) shows: its value, or what it is for. */
function readOnlyContent(m) {
  const f = m.f;
  const v = m.value;
  if (!v) return el('span', { class: 'placeholder' }, f.label || KIND_NAMES[f.kind]);
  if (f.kind === 'chk' || f.kind === 'apr') return el('span', { class: 'value' }, v === 'true' ? '✓' : '');
  if (f.kind === 'sig' || f.kind === 'ini') {
    return el('span', { class: 'typed' }, v.startsWith('typed:') ? v.slice(6) : 'Signed');
  }
  if (f.kind === 'sdt') return el('span', { class: 'value' }, formatDate(v));
  return el('span', { class: 'value' }, f.kind === 'cbg' ? v.split('|').join(', ') : v);
}

/** A field placed on its page: x, y, w and h are percentages of the page. */
function fieldBox(m) {
  const f = m.f;
  const box = el('div', {
    class: `field k-${f.kind} ${m.mine ? 'mine' : 'theirs'}${f.required ? ' required' : ''}`,
  });
  box.style.left = `${f.x}%`;
  box.style.top = `${f.y}%`;
  box.style.width = `${f.w}%`;
  box.style.height = `${f.h}%`;
  box.style.setProperty('--fh', String(f.h));
  m.box = box;
  if (!m.mine) {
    const service = f.kind === 'snm' || f.kind === 'sdt';
    box.title = service ? 'Filled in when signing is finished' : 'Filled in by another signer';
    box.append(
      el(
        'span',
        { class: 'sr-only' },
        service ? `${KIND_NAMES[f.kind]}, filled in for you: ` : 'Another signer’s field: ',
      ),
      readOnlyContent(m),
    );
    return box;
  }
  const errId = uid('err');
  m.err = el('span', { class: 'field-error', id: errId });
  m.control = controlFor(m, errId);
  box.append(m.control, m.err);
  if (f.kind === 'att') attachmentControls(m, box);
  box.append(
    el('span', { class: 'field-tip', 'aria-hidden': 'true' }, `${nameOf(m)}${f.required ? ' *' : ''}`),
  );
  m.control.addEventListener('focus', () => setCurrent(m));
  if (f.kind === 'sig' || f.kind === 'ini') renderMark(m);
  if (f.kind === 'cbg') renderChoices(m);
  renderFilled(m);
  return box;
}

/** An attachment field: the button opens a hidden file input. */
function attachmentControls(m, container) {
  const input = el('input', {
    type: 'file',
    class: 'sr-only',
    tabindex: '-1',
    accept: acceptOf(m.f),
    'aria-hidden': 'true',
  });
  m.fileName = el('span', { class: 'file-name' });
  m.control.addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    attach(m, input.files[0]);
    input.value = '';
  });
  container.append(input);
  renderAttachment(m);
}

/** Attachment fields have no place on a page: they are listed after the documents. */
function attachmentRow(m) {
  const f = m.f;
  const errId = uid('err');
  const titleId = uid('att');
  m.err = el('span', { class: 'field-error block', id: errId });
  m.control = el('button', {
    type: 'button',
    class: 'btn',
    'aria-describedby': `${titleId} ${errId}`,
    'aria-required': f.required ? 'true' : undefined,
  });
  const row = el(
    'li',
    { class: `attachment mine${f.required ? ' required' : ''}` },
    el(
      'div',
      { class: 'attachment-text' },
      el(
        'span',
        { class: 'attachment-title', id: titleId },
        nameOf(m),
        f.required ? el('span', { class: 'req' }, ' *') : null,
      ),
      el('span', { class: 'hint' }, attachmentHint(f)),
    ),
  );
  m.box = row;
  attachmentControls(m, row);
  row.append(el('div', { class: 'attachment-file' }, m.fileName, m.control), m.err);
  m.control.addEventListener('focus', () => setCurrent(m));
  renderFilled(m);
  return row;
}

// ---------------------------------------------------------------------------------------------
// The signing view

function showSigning() {
  const s = state;
  current = undefined;
  visited.clear();
  const order = new Map(s.documents.map((d, i) => [d.key, i]));
  const pageCount = new Map(s.documents.map((d) => [d.key, d.pages.length]));
  models = s.fields.map((f) => ({
    f,
    path: `${f.doc_key}.${f.key}`,
    value: f.value ?? '',
    mine: f.editable,
  }));
  const onPage = (m) => m.f.page >= 1 && m.f.page <= (pageCount.get(m.f.doc_key) ?? 0);
  const byPlace = (a, b) =>
    order.get(a.f.doc_key) - order.get(b.f.doc_key) || a.f.page - b.f.page || a.f.y - b.f.y || a.f.x - b.f.x;
  const placed = models.filter(onPage).sort(byPlace);
  const unplaced = models.filter((m) => !onPage(m) && m.mine);
  mine = [...placed.filter((m) => m.mine), ...unplaced];

  // Top bar: where the signer stands, and the guide.
  saveStatus = el('span', { class: 'save-status', role: 'status' });
  progressText = el('span', { class: 'progress' });
  nextButton = el('button', { type: 'button', class: 'btn primary next', onclick: next }, 'Start');
  tools.replaceChildren(saveStatus, progressText, nextButton);

  const heading = el('h1', { id: 'doc-title', tabindex: '-1' }, s.bundle.label || 'Documents to sign');
  const intro = el(
    'section',
    { class: 'card intro', 'aria-labelledby': 'doc-title' },
    s.bundle.is_test
      ? el('p', { class: 'test-banner' }, 'Test request: signing it has no legal effect.')
      : null,
    heading,
    el(
      'p',
      {},
      `${requester()} asked you, ${s.packet.name}, to review and sign ${
        s.documents.length === 1 ? 'this document' : `these ${s.documents.length} documents`
      }. Fill in the fields marked for you, then finish at the bottom.`,
    ),
    el(
      'ul',
      { class: 'legend', 'aria-label': 'Legend' },
      el('li', {}, el('span', { class: 'swatch mine', 'aria-hidden': 'true' }), 'Your fields'),
      el('li', {}, el('span', { class: 'swatch required', 'aria-hidden': 'true' }), 'Required (*)'),
      el('li', {}, el('span', { class: 'swatch theirs', 'aria-hidden': 'true' }), 'Others’ fields'),
    ),
    el('p', { class: 'hint' }, 'Use “Next field” to go from field to field. Changes are saved as you go.'),
  );

  const docs = s.documents.map((doc) => {
    const pdf = documentBytes(doc.key).then((bytes) => openPdf(bytes, doc.file_url));
    pdf.catch(() => undefined);
    const section = el(
      'section',
      { class: 'doc', 'aria-label': doc.name },
      el(
        'h2',
        { class: 'doc-title' },
        doc.name,
        el('span', { class: 'doc-pages' }, `${doc.pages.length} page${doc.pages.length === 1 ? '' : 's'}`),
      ),
    );
    doc.pages.forEach((p, i) => {
      const number = i + 1;
      const frame = el('div', {
        class: 'page',
        role: 'group',
        'aria-label': `${doc.name}, page ${number} of ${doc.pages.length}`,
      });
      frame.style.aspectRatio = `${p.width} / ${p.height}`;
      const canvas = el('canvas', { class: 'page-canvas', 'aria-hidden': 'true' });
      frame.append(canvas, el('span', { class: 'page-loading', 'aria-hidden': 'true' }, 'Loading page…'));
      for (const m of placed) if (m.f.doc_key === doc.key && m.f.page === number) frame.append(fieldBox(m));
      showPage(pdf, number, frame, canvas, () => frame.classList.add('failed'));
      section.append(
        frame,
        el('p', { class: 'page-number', 'aria-hidden': 'true' }, `Page ${number} of ${doc.pages.length}`),
      );
    });
    return section;
  });

  const attachments =
    unplaced.length > 0
      ? el(
          'section',
          { class: 'card attachments', 'aria-labelledby': 'att-title' },
          el('h2', { id: 'att-title' }, 'Files to attach'),
          el('ul', { class: 'attachment-list' }, unplaced.map(attachmentRow)),
        )
      : null;

  main.replaceChildren(intro, ...docs, attachments ?? '', finishCard());
  setTitle(s.bundle.label || 'Sign documents');
  updateProgress();
  heading.focus();
}

function finishCard() {
  const consent = el('input', { type: 'checkbox', id: 'consent', 'aria-describedby': 'consent-error' });
  const consentError = el('span', { class: 'field-error block', id: 'consent-error' });
  const summary = el('div', { class: 'finish-summary', id: 'finish-summary', role: 'alert' });
  const finish = el(
    'button',
    { type: 'button', class: 'btn primary large', id: 'finish-button' },
    'Finish signing',
  );
  const decline = el('button', { type: 'button', class: 'btn link danger' }, 'Decline to sign');
  consent.addEventListener('change', () => {
    if (consent.checked) consentError.textContent = '';
  });
  finish.addEventListener('click', () => complete(finish, consent, consentError, summary));
  decline.addEventListener('click', () => declineSigning(summary));
  return el(
    'section',
    { class: 'card finish', id: 'finish', 'aria-labelledby': 'finish-title' },
    el('h2', { id: 'finish-title' }, 'Finish'),
    state.payment ? paymentStep() : '',
    summary,
    el('div', { class: 'consent' }, consent, el('label', { for: 'consent' }, state.consent_text)),
    consentError,
    el('div', { class: 'finish-actions' }, finish, decline),
  );
}

/** An amount in the currency's smallest unit, as the signer reads it (2500 usd: $25.00). */
function money(amount, currency) {
  try {
    const format = new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() });
    return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${amount} ${currency}`;
  }
}

let paymentWatch = null;

/**
 * The billed signer's payment step: Pay opens the checkout in a new tab; the page watches the
 * state until the payment is recorded (the processor tells the service, not the page).
 */
function paymentStep() {
  const p = state.payment;
  const amount = money(p.amount_due, p.currency);
  const status = el(
    'p',
    { id: 'payment-status', role: 'status' },
    !p.required
      ? `Paid: ${amount}. Thank you.`
      : p.status === 'failed'
        ? `The payment did not go through. ${amount} is still due before you finish.`
        : `${amount} is due before you finish.`,
  );
  // A refunded payment is final: nothing to pay here, the sender decides what happens next.
  if (p.status === 'refunded')
    status.textContent = `Your payment of ${amount} was refunded. Contact the sender.`;
  const section = el('div', { class: 'payment', id: 'payment' }, el('h3', {}, 'Payment'), status);
  if (!p.required || p.status === 'refunded') return section;
  const pay = el('button', { type: 'button', class: 'btn primary', id: 'pay-button' }, `Pay ${amount}`);
  const check = el('button', { type: 'button', class: 'btn link', id: 'payment-check' }, 'I have paid');
  pay.addEventListener('click', async () => {
    pay.disabled = true;
    try {
      const started = await api.startPayment();
      if (started.checkout_url) window.open(started.checkout_url, '_blank');
      status.textContent = 'Complete the payment in the new tab; this page updates when it is received.';
      watchPayment();
    } catch (err) {
      if (!ended(err)) status.textContent = messageOf(err);
    } finally {
      pay.disabled = false;
    }
  });
  check.addEventListener('click', () => refreshPayment());
  section.append(el('div', { class: 'finish-actions' }, pay, check));
  return section;
}

/** Reads the state again; once the payment is recorded, the step shows it and the watch stops. */
async function refreshPayment() {
  try {
    const next = await api.state();
    if (!next.payment || next.payment.status === state.payment?.status) return;
    state = { ...state, payment: next.payment };
    document.getElementById('payment')?.replaceWith(paymentStep());
    if (!state.payment.required) {
      clearInterval(paymentWatch);
      paymentWatch = null;
      announce('Payment received.');
    }
  } catch {
    // The next check tries again.
  }
}

function watchPayment() {
  if (paymentWatch) return;
  let checks = 0;
  paymentWatch = setInterval(() => {
    if (++checks > 300) {
      clearInterval(paymentWatch);
      paymentWatch = null;
    }
    refreshPayment();
  }, 2000);
}

async function complete(button, consent, consentError, summary) {
  summary.replaceChildren();
  if (state.payment?.required) {
    summary.append(el('p', {}, 'Pay first: the payment is due before you finish.'));
    document.getElementById('pay-button')?.focus();
    return;
  }
  await flushSaves();
  const missing = mine.filter((m) => m.f.required && !filled(m));
  for (const m of missing) {
    m.requiredError = 'This field is required.';
    renderError(m);
  }
  const wrong = mine.filter((m) => m.clientError || m.serverError);
  const problems = [...missing, ...wrong.filter((m) => !missing.includes(m))];
  if (problems.length > 0) {
    summary.append(
      el(
        'p',
        {},
        problems.length === 1
          ? 'One field needs your attention:'
          : `${problems.length} fields need your attention:`,
      ),
      el(
        'ul',
        {},
        problems.map((m) =>
          el(
            'li',
            {},
            el('button', { type: 'button', class: 'btn link', onclick: () => goTo(m) }, nameOf(m)),
            ` – ${m.requiredError || m.serverError || m.clientError}`,
          ),
        ),
      ),
    );
    goTo(problems[0]);
    return;
  }
  if (!consent.checked) {
    consentError.textContent = 'Tick the box to agree to sign electronically.';
    consent.focus();
    return;
  }
  button.disabled = true;
  button.textContent = 'Finishing…';
  try {
    state = await api.complete();
    justFinished = true;
    showDone();
  } catch (err) {
    button.disabled = false;
    button.textContent = 'Finish signing';
    if (ended(err)) return;
    if (err instanceof ApiError && err.status === 400) {
      const refused = err.fields.map((e) => [models.find((m) => m.path === e.field), e]).filter(([m]) => m);
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

async function declineSigning(summary) {
  const reason = await declineDialog({ requester: state.bundle.requester_name });
  if (!reason) return;
  try {
    state = await api.decline(reason);
    showMessage('You declined to sign', `${requester()} was told that you declined, and why.`, {
      tone: 'stop',
    });
  } catch (err) {
    if (ended(err)) return;
    summary.replaceChildren(el('p', {}, messageOf(err)));
  }
}

// ---------------------------------------------------------------------------------------------

applyBrand();
document.body.append(el('div', { id: 'announcer', class: 'sr-only', 'aria-live': 'polite' }));
window.addEventListener('beforeunload', (e) => {
  if (pending.size > 0) {
    flushSaves();
    e.preventDefault();
  }
});
start();
