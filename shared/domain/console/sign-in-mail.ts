import type { TSignInMailer } from '../ports/console';
import type { TMailer } from '../ports/notifications';
import { LINK_MINUTES } from './console-session';

/** The sign-in email: the link, how long it works, and what to do if it was not asked for. */
export function signInMailer(mailer: TMailer, from: string): TSignInMailer {
  return {
    async sendSignInLink(to, link) {
      await mailer.send({
        from,
        to: [to],
        subject: 'Your sign-in link',
        text: [
          'Open this link to sign in to the console:',
          '',
          link,
          '',
          `It works once, within ${LINK_MINUTES} minutes. If you did not ask to sign in, you can ignore this email: nobody can sign in without the link.`,
        ].join('\n'),
      });
    },
  };
}
