// The signer's own choice of language on the page. Kept in their signing record (not in the
// browser, nor on the bundle): the same link opened on another device speaks it too, it weighs on
// no bundle write (no version race with other signers, no webhook), and the record already holds
// what the signer did, as evidence of which language they read.
import * as z from 'zod';
import { ZLanguageSchema } from '#shared/schemas/language';
import { parseInput } from '../parse-input';
import { changeSigner, saveStep, type TSignerCall, type TSignerContext } from './signer-context';

const ZChooseLanguage = z.object({ language: ZLanguageSchema });

/** Remembers the language the signer chose; allowed at any step, even after finishing. */
export async function chooseLanguage(call: TSignerCall, body: unknown): Promise<TSignerContext> {
  const { language } = parseInput(ZChooseLanguage, body);
  return changeSigner(call, async (ctx) => {
    if (ctx.record.language === language) return ctx;
    return saveStep(call, ctx, { language }, 'language', call.deps.clock.now().toISOString(), language);
  });
}
