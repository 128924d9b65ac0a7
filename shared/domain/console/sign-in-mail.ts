import { translator } from '#shared/i18n/catalogs';
import { resolveLanguage } from '#shared/i18n/languages';
import type { TSignInMailer } from '../ports/console';
import type { TMailer } from '../ports/notifications';
import { LINK_MINUTES } from './console-session';

/**
 * The sign-in email, in the account's language (the user's own is not known before they sign
 * in): the link, how long it works, and what to do if it was not asked for.
 */
export function signInMailer(mailer: TMailer, from: string): TSignInMailer {
  return {
    async sendSignInLink(to, link, language) {
      const t = translator(resolveLanguage(language));
      await mailer.send({
        from,
        to: [to],
        subject: t('message.signInSubject'),
        text: [
          t('message.signInIntro'),
          '',
          link,
          '',
          t('message.signInNote', { minutes: LINK_MINUTES }),
        ].join('\n'),
      });
    },
  };
}
