import { type SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { TEmailMessage, TMailer } from '#shared/domain/ports/notifications';

export interface TSesMailerOptions {
  /** Lets SES publish bounces and complaints for these messages to the configured destinations. */
  configurationSetName?: string;
}

// Declared explicitly so that non-ASCII names and text survive regardless of SES's default charset.
const CHARSET = 'UTF-8';

export function createSesMailer(client: SESv2Client, opts: TSesMailerOptions = {}): TMailer {
  return {
    async send(message: TEmailMessage): Promise<string> {
      const out = await client.send(
        new SendEmailCommand({
          FromEmailAddress: message.from,
          Destination: {
            ToAddresses: message.to,
            ...(message.cc?.length ? { CcAddresses: message.cc } : {}),
          },
          ...(message.replyTo?.length ? { ReplyToAddresses: message.replyTo } : {}),
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: CHARSET },
              Body: {
                Text: { Data: message.text, Charset: CHARSET },
                ...(message.html !== undefined ? { Html: { Data: message.html, Charset: CHARSET } } : {}),
              },
              // SESv2 builds the MIME message itself (multipart/mixed, base64 parts) from these.
              ...(message.attachments?.length
                ? {
                    Attachments: message.attachments.map((a) => ({
                      RawContent: a.bytes,
                      FileName: a.fileName,
                      ContentType: a.contentType,
                      ContentDisposition: 'ATTACHMENT' as const,
                      ContentTransferEncoding: 'BASE64' as const,
                    })),
                  }
                : {}),
            },
          },
          ...(opts.configurationSetName ? { ConfigurationSetName: opts.configurationSetName } : {}),
        }),
      );
      // The model marks MessageId optional; a send without one cannot be traced later, so it is a failure.
      if (!out.MessageId) throw new Error('SES accepted the email but returned no MessageId');
      return out.MessageId;
    },
  };
}
