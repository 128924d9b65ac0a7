// @ts-check
// The identity checks the sender asked for, before the documents show: a code by text message, a
// photo of the signer, photos of their ID. Each step that passes answers the new state, and the
// page goes where it says.
import { ApiError, api } from './api.js';
import { docLabel, main, messageOf, requester, setTitle, tools } from './chrome.js';
import { announce, el, uid } from './dom.js';
import { ended, route } from './navigation.js';
import { page } from './state.js';

const STEP_NAMES = { sms: 'Code by text message', selfie: 'A photo of you', id: 'Photos of your ID' };
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
  const heading = el('h1', { id: 'auth-title', tabindex: '-1' }, 'Confirm it’s you');
  const steps = el(
    'ol',
    { class: 'steps' },
    page.state.auth.required.map((s) => {
      const done = page.state.auth.passed.includes(s);
      const now = s === pending[0];
      return el(
        'li',
        { class: done ? 'done' : now ? 'now' : '', 'aria-current': now ? 'step' : undefined },
        el('span', { class: 'step-name' }, STEP_NAMES[s]),
        el('span', { class: 'step-page.state' }, done ? 'Done' : now ? 'Now' : 'Next'),
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
        `${requester()} asked us to check that it is you, ${page.state.packet.name}, before you see “${docLabel()}”.`,
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
          page.state = await api.verifySms(value);
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
      page.state = await api.sendSms();
      status.textContent = `We sent a code to ${page.state.auth.sms_phone_hint ?? 'your phone'}. It works for 10 minutes.`;
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
    el('p', {}, `We will text a 6-digit code to your phone ${page.state.auth.sms_phone_hint ?? ''}.`),
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
      page.state = await api.selfie(blob);
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
          page.state = await api.id(f, b);
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
