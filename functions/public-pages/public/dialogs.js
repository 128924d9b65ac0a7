// @ts-check
// Modal dialogs (<dialog> with showModal: focus stays inside, Escape cancels): drawing or typing
// a signature, choosing several options, declining with a reason.
import { el, uid } from './dom.js';
import { formatNumber, t } from './i18n.js';
import { hasVisibleContent } from './text/visible-text.js';

/**
 * Opens a modal dialog. `build(close)` returns the body and the primary action; the promise
 * settles with what `close(value)` was given, or null when cancelled.
 */
/**
 * @param {{ title: string, describe?: string, build: any, primaryLabel: string, danger?: boolean, wide?: boolean }} options
 */
export function modal({ title, describe, build, primaryLabel, danger = false, wide = false }) {
  return new Promise((resolve) => {
    const titleId = uid('dlg-title');
    const errorId = uid('dlg-error');
    const dialog = el('dialog', { class: `dialog${wide ? ' wide' : ''}`, 'aria-labelledby': titleId });
    const error = el('p', { class: 'dialog-error', id: errorId, role: 'alert' });
    let settled = false;
    const close = (value) => {
      if (settled) return;
      settled = true;
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    const showError = (text) => {
      error.textContent = text ?? '';
    };
    const { body, submit, initialFocus } = build({ close, showError });
    const primary = el(
      'button',
      { type: 'submit', class: `btn ${danger ? 'danger' : 'primary'}` },
      primaryLabel,
    );
    const form = el(
      'form',
      {
        method: 'dialog',
        onsubmit: async (e) => {
          e.preventDefault();
          showError('');
          primary.disabled = true;
          try {
            const value = await submit();
            if (value !== undefined) close(value);
          } finally {
            primary.disabled = false;
          }
        },
      },
      el('h2', { id: titleId, class: 'dialog-title' }, title),
      describe ? el('p', { class: 'dialog-text' }, describe) : null,
      body,
      error,
      el(
        'div',
        { class: 'dialog-actions' },
        el('button', { type: 'button', class: 'btn', onclick: () => close(null) }, t('sign.dialog.cancel')),
        primary,
      ),
    );
    dialog.append(form);
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      close(null);
    });
    dialog.addEventListener('keydown', (e) => keepFocusIn(dialog, e));
    document.body.append(dialog);
    dialog.showModal();
    (initialFocus?.() ?? dialog.querySelector('input, textarea, button'))?.focus();
  });
}

/**
 * Tab from the last control goes to the first, Shift+Tab from the first to the last: a modal
 * <dialog> makes the page behind it inert, but the browser lets focus leave for its own toolbar.
 */
function keepFocusIn(dialog, e) {
  if (e.key !== 'Tab') return;
  const stops = [...dialog.querySelectorAll('button, input, select, textarea, [tabindex]')].filter(
    (n) => !n.disabled && n.tabIndex >= 0 && n.getClientRects().length > 0,
  );
  const [first, last] = [stops[0], stops.at(-1)];
  if (!first) return;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

const SIGNATURE_PAD = './signature_pad.min.js';
let SignaturePad;
async function signaturePad() {
  // Served beside this file from the signature_pad package; a specifier in a variable keeps the
  // type checker from looking for it here.
  SignaturePad ??= (await import(SIGNATURE_PAD)).default;
  return SignaturePad;
}

/** The drawing cropped to its ink, with a margin, as a PNG data URL (at most 600 px wide). */
function croppedPng(canvas) {
  const ctx = canvas.getContext('2d');
  const { width, height } = canvas;
  const data = ctx.getImageData(0, 0, width, height).data;
  let top = height;
  let left = width;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[(y * width + x) * 4 + 3] > 0) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
    }
  }
  if (right < 0) return undefined;
  const pad = 8;
  const w = right - left + 1 + 2 * pad;
  const h = bottom - top + 1 + 2 * pad;
  const scale = Math.min(1, 600 / w);
  const out = document.createElement('canvas');
  out.width = Math.max(1, Math.round(w * scale));
  out.height = Math.max(1, Math.round(h * scale));
  out.getContext('2d').drawImage(canvas, left - pad, top - pad, w, h, 0, 0, out.width, out.height);
  return out.toDataURL('image/png');
}

/**
 * Signature or initials: drawn (signature_pad) or typed. Resolves `{image}` (a PNG data URL),
 * `{typed}` (the text), or null.
 */
export async function signatureDialog({ kind, label, suggestion, previous }) {
  const Pad = await signaturePad();
  // Signature and initials have their own messages (`sign.dialog.sig…`, `…ini…`): languages
  // inflect the two nouns differently.
  const say = (name) => t(`sign.dialog.${kind === 'ini' ? 'ini' : 'sig'}${name}`);
  let mode = 'draw';
  let pad;
  return modal({
    title: say('Title'),
    describe: label ? t('sign.dialog.for', { label }) : undefined,
    primaryLabel: say('Apply'),
    wide: true,
    build: ({ showError }) => {
      const drawTab = el(
        'button',
        { type: 'button', role: 'tab', id: uid('tab'), class: 'tab' },
        t('sign.dialog.draw'),
      );
      const typeTab = el(
        'button',
        { type: 'button', role: 'tab', id: uid('tab'), class: 'tab' },
        t('sign.dialog.type'),
      );
      const canvas = el('canvas', { class: 'pad', role: 'img', 'aria-label': say('Pad') });
      const clear = el(
        'button',
        {
          type: 'button',
          class: 'btn small',
          onclick: () => {
            pad?.clear();
            showError('');
          },
        },
        t('sign.dialog.clear'),
      );
      const drawPanel = el(
        'div',
        { role: 'tabpanel', class: 'tabpanel', 'aria-labelledby': drawTab.id },
        el('div', { class: 'pad-frame' }, canvas, el('span', { class: 'pad-line', 'aria-hidden': 'true' })),
        el('div', { class: 'pad-tools' }, el('span', { class: 'hint' }, say('DrawHint')), clear),
      );
      const typedId = uid('typed');
      const typed = el('input', {
        id: typedId,
        type: 'text',
        class: 'input',
        value: suggestion ?? '',
        maxlength: 200,
        autocomplete: kind === 'ini' ? 'off' : 'name',
      });
      const preview = el('div', { class: 'typed-preview', 'aria-hidden': 'true' }, suggestion ?? '');
      typed.addEventListener('input', () => {
        preview.textContent = typed.value;
        showError('');
      });
      const typePanel = el(
        'div',
        { role: 'tabpanel', class: 'tabpanel', 'aria-labelledby': typeTab.id, hidden: true },
        el(
          'label',
          { for: typedId, class: 'label' },
          t(kind === 'ini' ? 'sign.dialog.yourInitials' : 'sign.dialog.fullName'),
        ),
        typed,
        preview,
      );
      const reuse = previous
        ? el(
            'div',
            { class: 'reuse' },
            previous.image
              ? el('img', { class: 'reuse-img', src: previous.image, alt: say('Before') })
              : null,
            previous.typed ? el('span', { class: 'typed-preview small' }, previous.typed) : null,
          )
        : null;
      const select = (next) => {
        mode = next;
        drawTab.setAttribute('aria-selected', String(next === 'draw'));
        typeTab.setAttribute('aria-selected', String(next === 'type'));
        drawTab.tabIndex = next === 'draw' ? 0 : -1;
        typeTab.tabIndex = next === 'type' ? 0 : -1;
        drawPanel.hidden = next !== 'draw';
        typePanel.hidden = next !== 'type';
        showError('');
        if (next === 'draw') requestAnimationFrame(sizePad);
        if (next === 'type') typed.focus();
      };
      drawTab.addEventListener('click', () => select('draw'));
      typeTab.addEventListener('click', () => select('type'));
      const tabs = el('div', { role: 'tablist', class: 'tabs', 'aria-label': say('Tabs') }, drawTab, typeTab);
      tabs.addEventListener('keydown', (e) => {
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        const next = mode === 'draw' ? 'type' : 'draw';
        select(next);
        (next === 'draw' ? drawTab : typeTab).focus();
      });
      function sizePad() {
        const ratio = Math.min(window.devicePixelRatio || 1, 2);
        const width = canvas.offsetWidth;
        const height = canvas.offsetHeight;
        if (width === 0) return;
        const data = pad && !pad.isEmpty() ? pad.toData() : undefined;
        canvas.width = width * ratio;
        canvas.height = height * ratio;
        canvas.getContext('2d').scale(ratio, ratio);
        if (!pad) {
          pad = new Pad(canvas, { minWidth: 0.8, maxWidth: 2.6, penColor: '#1a1f36' });
          pad.addEventListener('beginStroke', () => showError(''));
        } else {
          pad.clear();
          if (data) pad.fromData(data);
        }
      }
      // The pad is sized once the dialog is laid out; a signer who already moved to Type (the
      // arrow keys can be quicker than the first frame) stays there.
      let moved = false;
      tabs.addEventListener('keydown', () => {
        moved = true;
      });
      requestAnimationFrame(() => {
        if (moved) return;
        select('draw');
        drawTab.focus();
      });
      window.addEventListener('resize', () => requestAnimationFrame(sizePad));
      const body = el(
        'div',
        { class: 'signature-body' },
        reuse
          ? el(
              'div',
              { class: 'reuse-row' },
              reuse,
              el(
                'button',
                {
                  type: 'button',
                  class: 'btn',
                  onclick: () => {
                    mode = 'reuse';
                    body.closest('form').requestSubmit();
                  },
                },
                say('Reuse'),
              ),
            )
          : null,
        tabs,
        drawPanel,
        typePanel,
      );
      return {
        body,
        initialFocus: () => drawTab,
        submit: async () => {
          if (mode === 'reuse') return previous;
          if (mode === 'type') {
            const text = typed.value.trim();
            // The service's rule: a mark of invisible characters (a Hangul filler) is no mark.
            if (!hasVisibleContent(text)) {
              showError(say('TypeMissing'));
              typed.focus();
              return undefined;
            }
            return { typed: text };
          }
          const image = pad && !pad.isEmpty() ? croppedPng(canvas) : undefined;
          if (!image) {
            showError(say('DrawMissing'));
            return undefined;
          }
          return { image };
        },
      };
    },
  });
}

/** A checkbox group's choices; resolves the chosen options joined by `|`, or null. */
export function choicesDialog({ label, options, value, required }) {
  const chosen = new Set(value ? value.split('|') : []);
  return modal({
    title: label || t('sign.dialog.chooseOptions'),
    primaryLabel: t('sign.dialog.done'),
    build: ({ showError }) => {
      const boxes = options.map((o) => {
        const id = uid('opt');
        return el(
          'div',
          { class: 'check-row' },
          el('input', { type: 'checkbox', id, value: o, checked: chosen.has(o) }),
          el('label', { for: id }, o),
        );
      });
      const fieldset = el(
        'fieldset',
        { class: 'choices' },
        el('legend', { class: 'sr-only' }, label || t('sign.dialog.options')),
        boxes,
      );
      return {
        body: fieldset,
        submit: async () => {
          const picked = [...fieldset.querySelectorAll('input:checked')].map((i) => i.value);
          if (required && picked.length === 0) {
            showError(t('sign.dialog.atLeastOne'));
            return undefined;
          }
          return picked.join('|');
        },
      };
    },
  });
}

/** Declining: the reason (1–500 characters); resolves it, or null. */
export function declineDialog({ requester }) {
  return modal({
    title: t('sign.dialog.declineTitle'),
    describe: t('sign.dialog.declineText', { requester: requester || t('sign.dialog.theSender') }),
    primaryLabel: t('sign.dialog.declineAction'),
    danger: true,
    build: ({ showError }) => {
      const id = uid('reason');
      const counter = el(
        'span',
        { class: 'hint', 'aria-live': 'polite' },
        `${formatNumber(0)} / ${formatNumber(500)}`,
      );
      const reason = el('textarea', { id, class: 'input', rows: 4, maxlength: 500, 'aria-required': 'true' });
      reason.addEventListener('input', () => {
        counter.textContent = `${formatNumber(reason.value.length)} / ${formatNumber(500)}`;
        showError('');
      });
      return {
        body: el(
          'div',
          {},
          el('label', { for: id, class: 'label' }, t('sign.dialog.declineReason')),
          reason,
          counter,
        ),
        submit: async () => {
          const text = reason.value.trim();
          if (!text) {
            showError(t('sign.dialog.declineMissing'));
            reason.focus();
            return undefined;
          }
          return text;
        },
      };
    },
  });
}
