// @ts-check
// The identity checks the sender asked for, before the documents show: a code by text message, a
// photo of the signer, photos of their ID. Each step that passes answers the new state, and the
// page goes where it says.
import { ApiError, api } from './api.js';
import { docLabel, main, messageOf, requester, setTitle, tools } from './chrome.js';
import { announce, el, uid } from './dom.js';
import { t, tIsolated } from './i18n.js';
import { ended, route } from './navigation.js';
import { page } from './state.js';

const STEP_NAMES = { sms: 'sign.auth.stepSms', selfie: 'sign.auth.stepSelfie', id: 'sign.auth.stepId' };
const stepName = (step) => t(STEP_NAMES[step]);
/** @type {MediaStream | undefined} */
let camera;

/** Turns the camera off: on every change of step, so it never stays on behind another page. */
export function stopCamera() {
  for (const track of camera?.getTracks() ?? []) track.stop();
  camera = undefined;
}

/** The checks the signer has still to pass, in the order asked. */
export const authPending = () => page.state.auth.required.filter((s) => !page.state.auth.passed.includes(s));

export function showAuth() {
  tools.replaceChildren();
  const pending = authPending();
  const heading = el('h1', { id: 'auth-title', tabindex: '-1' }, t('sign.auth.title'));
  const steps = el(
    'ol',
    { class: 'steps' },
    page.state.auth.required.map((s) => {
      const done = page.state.auth.passed.includes(s);
      const now = s === pending[0];
      return el(
        'li',
        { class: done ? 'done' : now ? 'now' : '', 'aria-current': now ? 'step' : undefined },
        el('span', { class: 'step-name' }, stepName(s)),
        el(
          'span',
          { class: 'step-page.state' },
          t(done ? 'sign.auth.stateDone' : now ? 'sign.auth.stateNow' : 'sign.auth.stateNext'),
        ),
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
        tIsolated('sign.auth.intro', {
          requester: requester(),
          name: page.state.packet.name,
          label: docLabel(),
        }),
      ),
      steps,
      step === 'sms' ? smsStep() : step === 'selfie' ? selfieStep() : idStep(),
    ),
  );
  setTitle(t('sign.auth.title'));
  heading.focus();
}

function smsStep() {
  const status = el('p', { class: 'step-status', role: 'status' });
  const codeId = uid('code');
  const errId = uid('err');
  const error = el('p', { class: 'field-error block', id: errId, role: 'alert' });
  const code = el('input', {
    id: codeId,
    class: 'input code',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    maxlength: 6,
    'aria-describedby': errId,
  });
  const confirm = el('button', { type: 'submit', class: 'btn primary' }, t('sign.auth.confirm'));
  const form = el(
    'form',
    {
      class: 'code-form',
      hidden: true,
      onsubmit: async (e) => {
        e.preventDefault();
        const value = code.value.replace(/\s/g, '');
        if (!/^\d{6}$/.test(value)) {
          error.textContent = t('sign.auth.codeDigits');
          code.setAttribute('aria-invalid', 'true');
          return code.focus();
        }
        confirm.disabled = true;
        try {
          page.state = await api.verifySms(value);
          announce(t('sign.auth.codeConfirmed'));
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
    el('label', { for: codeId, class: 'label' }, t('sign.auth.codeLabel')),
    el('div', { class: 'row' }, code, confirm),
    error,
  );
  const send = el('button', { type: 'button', class: 'btn primary' }, t('sign.auth.smsSend'));
  send.addEventListener('click', async () => {
    send.disabled = true;
    try {
      page.state = await api.sendSms();
      status.textContent = t('sign.auth.smsSent', {
        phone: page.state.auth.sms_phone_hint ?? t('sign.auth.yourPhone'),
      });
      form.hidden = false;
      send.textContent = t('sign.auth.smsResend');
      send.classList.remove('primary');
      code.focus();
    } catch (err) {
      if (ended(err)) return;
      status.textContent =
        err instanceof ApiError && err.status === 429
          ? t('sign.auth.waitSeconds', { message: err.message, seconds: err.retryAfter ?? 30 })
          : messageOf(err);
    } finally {
      send.disabled = false;
    }
  });
  return el(
    'div',
    { class: 'step' },
    el('h2', {}, stepName('sms')),
    el('p', {}, t('sign.auth.smsIntro', { phone: page.state.auth.sms_phone_hint ?? '' })),
    send,
    status,
    form,
  );
}

const IMAGE_TYPES = ['image/jpeg', 'image/png'];
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

function imageProblem(file) {
  if (!file) return t('sign.auth.choosePhoto');
  if (!IMAGE_TYPES.includes(file.type)) return t('sign.auth.photoType');
  if (file.size > MAX_IMAGE_BYTES) return t('sign.auth.photoSize');
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
  video.setAttribute('aria-label', t('sign.auth.cameraPreview'));
  const useCamera = el('button', { type: 'button', class: 'btn primary' }, t('sign.auth.useCamera'));
  const snap = el('button', { type: 'button', class: 'btn primary', hidden: true }, t('sign.auth.takePhoto'));
  if (!navigator.mediaDevices?.getUserMedia) useCamera.hidden = true;

  async function upload(blob) {
    const problem = imageProblem(blob);
    if (problem) {
      error.textContent = problem;
      return;
    }
    error.textContent = '';
    status.textContent = t('sign.auth.sendingPhoto');
    try {
      page.state = await api.selfie(blob);
      announce(t('sign.auth.photoAccepted'));
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
      error.textContent = t('sign.auth.cameraFailed');
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
    el('h2', {}, stepName('selfie')),
    el('p', {}, t('sign.auth.selfieIntro')),
    el('div', { class: 'row wrap' }, useCamera, snap),
    video,
    el('label', { for: fileId, class: 'label' }, t('sign.auth.selfieFile')),
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
      el(
        'label',
        { for: id, class: 'label' },
        t(side === 'front' ? 'sign.auth.idFront' : 'sign.auth.idBack'),
      ),
      node,
    ];
  };
  const [frontLabel, front] = input('front');
  const [backLabel, back] = input('back');
  const submit = el('button', { type: 'submit', class: 'btn primary' }, t('sign.auth.sendPhotos'));
  return el(
    'form',
    {
      class: 'step',
      onsubmit: async (e) => {
        e.preventDefault();
        const [f, b] = [front.files[0], back.files[0]];
        const frontProblem = imageProblem(f);
        const problem = frontProblem ?? imageProblem(b);
        if (problem) {
          error.textContent = t(frontProblem ? 'sign.auth.frontProblem' : 'sign.auth.backProblem', {
            problem,
          });
          return;
        }
        error.textContent = '';
        status.textContent = t('sign.auth.sendingPhotos');
        submit.disabled = true;
        try {
          page.state = await api.id(f, b);
          announce(t('sign.auth.idAccepted'));
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
    el('h2', {}, stepName('id')),
    el('p', {}, t('sign.auth.idIntro')),
    frontLabel,
    front,
    backLabel,
    back,
    submit,
    error,
    status,
  );
}
