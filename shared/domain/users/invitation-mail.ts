import { translator } from '#shared/i18n/catalogs';
import { resolveLanguage } from '#shared/i18n/languages';
import type { TMailer } from '../ports/notifications';
import type { TInvitationMailer } from '../ports/users';

/**
 * The invitation email, in the account's language (the invitee's own is not known yet): who
 * invites them to which account, the link, how long it works.
 */
export function invitationMailer(mailer: TMailer, from: string): TInvitationMailer {
  return {
    async sendInvitation(to, link, about, language) {
      const t = translator(resolveLanguage(language));
      const names = { account: about.accountName, inviter: about.inviterName };
      await mailer.send({
        from,
        to: [to],
        subject: t('message.inviteSubject', names),
        text: [
          t('message.inviteIntro', names),
          '',
          link,
          '',
          t('message.inviteNote', { days: about.days }),
        ].join('\n'),
      });
    },
  };
}
