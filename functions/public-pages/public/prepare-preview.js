// @ts-check
// "Preview as signer" in the bundle editor (prepare.js): the pages with only one signer's fields,
// drawn as that signer will find them (empty, with their initial values, their choices), and
// nothing to change. The page's pdf.js canvases stay; only the fields layer is drawn anew.
import { el } from './dom.js';
import { t } from './i18n.js';
import { KIND_NAME } from './prepare-kinds.js';

const today = () => new Date().toISOString().slice(0, 10);

/** What a field shows before the signer touches it. */
function shownText(f, signer) {
  const value = f.initial_value ?? '';
  switch (f.kind) {
    case 'sig':
      return t('editor.shown.sign');
    case 'ini':
      return t('editor.kind.ini');
    case 'snm':
      return signer.name;
    case 'sdt':
      return today();
    case 'chk':
      return value.toLowerCase() === 'true' ? '☑' : '☐';
    case 'sel':
      return value || (f.format ?? '').split('|')[0] || t('editor.shown.choose');
    case 'cbg':
      return (f.format ?? '')
        .split('|')
        .filter(Boolean)
        .map((c) => `☐ ${c}`)
        .join('  ');
    case 'att':
      return t('editor.shown.attach');
    case 'apr':
      return t('editor.shown.approve');
    case 'dat':
      return value || 'YYYY-MM-DD';
    default:
      return value || f.label || KIND_NAME[f.kind] || f.kind;
  }
}

/** Whether the field is the signer's: its `editors` name them (with or without the `-` prefix). */
export const isSignersField = (f, key) => (f.editors ?? []).some((e) => e.replace(/^-/, '') === key);

/**
 * Draws `fields` of `signer` on their pages' layers, read-only. `frameOf(f)` gives a field's page
 * frame. Answers how many fields the signer has.
 */
export function drawPreview(frames, fields, signer, frameOf) {
  for (const frame of frames) frame.layer.replaceChildren();
  const mine = fields.filter((f) => isSignersField(f, signer.key));
  for (const f of mine) {
    const frame = frameOf(f);
    if (!frame) continue;
    const required = f.required && !['snm', 'sdt'].includes(f.kind);
    const node = el(
      'div',
      {
        class: `prep-preview-field kind-${f.kind}`,
        dataset: { key: f.key },
        role: 'img',
        'aria-label': required
          ? t('editor.shown.required', { name: f.label || KIND_NAME[f.kind] || f.kind })
          : f.label || KIND_NAME[f.kind] || f.kind,
      },
      el('span', { text: shownText(f, signer) }),
      required ? el('span', { class: 'prep-required', 'aria-hidden': 'true', text: '*' }) : null,
    );
    node.style.left = `${f.x}%`;
    node.style.top = `${f.y}%`;
    node.style.width = `${f.w}%`;
    node.style.height = `${f.h}%`;
    frame.layer.append(node);
  }
  return mine.length;
}
