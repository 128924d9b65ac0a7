import { describe, expect, it } from 'vitest';
// @ts-expect-error the page's rules are plain JavaScript served to the browser as they are
import { attachmentProblem, attachmentTypes } from '../../functions/signing/public/rules.js';
import { ATTACHMENT_TYPES } from '../../shared/domain/bundles/bundle';
import { MAX_ATTACHMENT_BYTES } from '../../shared/domain/signing/upload-attachment';

// rules.js cannot import the service's constants (it is not bundled); these keep its copies true.
describe("the signing page's copies of the service's attachment rules", () => {
  it('allows the same file types when a field names none', () => {
    expect(attachmentTypes({})).toEqual([...ATTACHMENT_TYPES]);
  });

  it('refuses a file just over the same size limit, and takes one at it', () => {
    expect(attachmentProblem({}, { name: 'a.pdf', size: MAX_ATTACHMENT_BYTES })).toBeUndefined();
    expect(attachmentProblem({}, { name: 'a.pdf', size: MAX_ATTACHMENT_BYTES + 1 })).toMatch(/larger/);
  });
});
