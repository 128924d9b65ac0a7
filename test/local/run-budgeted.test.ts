// The untrusted-files worker's budget: a task past its deadline or its heap is ended and answers
// TooComplexError, the errors a task throws on purpose come back as their classes, and the
// workers left are still good for the next task.
import { describe, expect, it } from 'vitest';
import { runBudgeted } from '#shared/adapters/untrusted/run-budgeted';
import { TooComplexError } from '#shared/domain/errors';
import { PdfRejectedError } from '#shared/pdf/pdf-rejected-error';
import { manyObjects } from '../helpers/hostile-pdfs';
import { aPdf } from '../helpers/pdfs';

describe('runBudgeted', () => {
  it('ends a task that outlives its deadline with TooComplexError, then runs the next', async () => {
    const pdf = await aPdf();
    // No worker loads the verifier within a millisecond.
    await expect(
      runBudgeted('sealAndChecks', [pdf], 'check', { timeoutMs: 1, maxHeapMb: 256 }),
    ).rejects.toThrow(
      new TooComplexError('The file is too complex to check within the limits of one request.'),
    );
    const { checks } = await runBudgeted('sealAndChecks', [pdf], 'check');
    expect(checks?.result).toBe('fail');
  }, 120_000);

  it('ends a task that outgrows its heap with TooComplexError', async () => {
    const tooBig = runBudgeted('sealAndChecks', [manyObjects(45_000)], 'check', {
      timeoutMs: 600_000,
      maxHeapMb: 16,
    });
    await expect(tooBig).rejects.toBeInstanceOf(TooComplexError);
  }, 120_000);

  it('gives back the errors a task throws on purpose as their classes', async () => {
    const refused = runBudgeted('inspectPdf', [Buffer.from('not a pdf'), { maxPages: 10 }], 'read');
    await expect(refused).rejects.toBeInstanceOf(PdfRejectedError);
    await expect(refused).rejects.toMatchObject({ reason: 'not_pdf', message: 'The file is not a PDF.' });
    const csv = runBudgeted('parseRowsCsv', ['a,a\n1,2\n'], 'read');
    await expect(csv).rejects.toMatchObject({
      name: 'ValidationError',
      fieldErrors: [{ field: 'rows', message: 'Line 1, column 2: the column "a" appears twice.' }],
    });
  }, 120_000);
});
