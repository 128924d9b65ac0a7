// What the sender reads on a bundle whose final documents could not be sealed: the code names the
// cause, the message names each authority or certificate and why, and the errors of the job are
// cleared together once the documents are ready.
import { describe, expect, it } from 'vitest';
import { TimestampUnavailableError, ValidationDataUnavailableError } from '#shared/domain/errors';
import { bundleErrorOf, withoutDocumentJobErrors } from '#shared/domain/evidence/fail-document-job';

describe('the bundle error of a document job', () => {
  it('names each timestamp authority and why it failed', () => {
    const error = bundleErrorOf(
      new TimestampUnavailableError([{ url: 'https://tsa.example/tsr', reason: 'HTTP 503' }]),
      3,
    );
    expect(error.code).toBe('timestamp_unavailable');
    expect(error.message).toContain('https://tsa.example/tsr: HTTP 503');
    expect(error.message).toContain('3 attempt(s)');
  });

  it('names each certificate whose validation data could not be had, and why', () => {
    const error = bundleErrorOf(
      new ValidationDataUnavailableError([
        { certificate: 'CN=Example TSA', reason: 'revoked on 2026-11-24T10:00:00.000Z (CRL)' },
        { certificate: 'CN=Example seal', reason: 'http://ocsp.example: the OCSP answer is out of date' },
      ]),
      2,
    );
    expect(error).toEqual({
      code: 'validation_data_unavailable',
      message:
        "The final documents could not be sealed: the seal's certificates could not be shown valid (2 attempt(s)). " +
        'CN=Example TSA: revoked on 2026-11-24T10:00:00.000Z (CRL); CN=Example seal: http://ocsp.example: the OCSP answer is out of date.',
    });
  });

  it('is cleared with the other errors of the job once the documents are ready', () => {
    const kept = { code: 'other', message: 'kept' };
    const errors = [
      bundleErrorOf(new ValidationDataUnavailableError([{ certificate: 'CN=x', reason: 'y' }]), 1),
      bundleErrorOf(new TimestampUnavailableError([]), 1),
      kept,
    ];
    expect(withoutDocumentJobErrors(errors)).toEqual([kept]);
  });
});
