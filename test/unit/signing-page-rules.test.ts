import { describe, expect, it } from 'vitest';
import { isFilled as serviceIsFilled } from '#shared/domain/signing/field-access';
import { MAX_ATTACHMENT_BYTES } from '#shared/domain/signing/upload-attachment';
import { translator } from '#shared/i18n/catalogs';
import { ATTACHMENT_TYPES, FIELD_KINDS } from '#shared/schemas/vocabulary';
// @ts-expect-error the page's rules are plain JavaScript served to the browser as they are
import { attachmentProblem, attachmentTypes, isFilled } from '../../functions/public-pages/public/rules.js';

// The page's messages come from its catalog; here the English one.
const t = translator('en');

// rules.js cannot import the service's constants (it is not bundled); these keep its copies true.
describe("the signing page's copies of the service's attachment rules", () => {
  it('allows the same file types when a field names none', () => {
    expect(attachmentTypes({})).toEqual([...ATTACHMENT_TYPES]);
  });

  it('refuses a file just over the same size limit, and takes one at it', () => {
    expect(attachmentProblem({}, { name: 'a.pdf', size: MAX_ATTACHMENT_BYTES }, t)).toBeUndefined();
    expect(attachmentProblem({}, { name: 'a.pdf', size: MAX_ATTACHMENT_BYTES + 1 }, t)).toMatch(/larger/);
  });
});

describe("the signing page's rule for a filled required field", () => {
  const samples = [
    '',
    ' ',
    '   ',
    '\t\n',
    '\u00a0\u2003\u3000',
    '\u200b\u200d\ufeff',
    'a',
    ' Ann ',
    'true',
    'false',
    'drawn',
    'typed:',
    'typed:   ',
    'typed:\u200b',
    'typed:Ann',
    'Basic|Pro',
    'é',
    '名',
  ];

  it("is the service's, for every kind of field and value", () => {
    for (const kind of FIELD_KINDS) {
      for (const value of samples) {
        expect(isFilled({ kind }, value), `${kind} ${JSON.stringify(value)}`).toBe(
          serviceIsFilled({ kind }, value),
        );
      }
    }
  });

  it('needs visible content: blanks and invisible characters fill nothing', () => {
    for (const value of ['   ', '\u00a0\t', '\u200b']) {
      expect(serviceIsFilled({ kind: 'inp' }, value)).toBe(false);
      expect(serviceIsFilled({ kind: 'sig' }, `typed:${value}`)).toBe(false);
    }
    expect(serviceIsFilled({ kind: 'txt' }, ' a ')).toBe(true);
    expect(serviceIsFilled({ kind: 'chk' }, 'false')).toBe(false);
  });
});
