// Envelope templates disabled before entity version 3 have no list keys, so nothing that lists
// an account's templates by its keys (its export) finds them: this gives each the keys the
// current entity declares. Conditional on the `version` read and on the keys still missing, so
// a template changed meanwhile (saved whole, keys included, by the current code) is left alone.
import {
  envelopeTemplateEntity,
  envelopeTemplateKeys,
} from '#shared/adapters/dynamodb/entities/envelope-template';
import type { TItemUpgrade } from './item-upgrade';

const ITEM = envelopeTemplateKeys.item('');

export const envelopeTemplateListKeys: TItemUpgrade = {
  name: 'envelope-template-list-keys',
  filter: {
    FilterExpression: 'begins_with(pk, :pk) AND sk = :sk AND attribute_not_exists(lpk)',
    ExpressionAttributeValues: { ':pk': ITEM.pk, ':sk': ITEM.sk },
  },
  update(item) {
    const template = envelopeTemplateEntity.fromItem(item);
    const { lpk, lsk } = envelopeTemplateKeys.listKeys(template);
    const read = typeof item.version === 'number' ? item.version : undefined;
    return {
      Key: envelopeTemplateKeys.item(template.id),
      UpdateExpression: 'SET lpk = :lpk, lsk = :lsk, entityVersion = :entityVersion',
      ConditionExpression: `attribute_not_exists(lpk) AND ${read === undefined ? 'attribute_not_exists(#version)' : '#version = :version'}`,
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: {
        ':lpk': lpk,
        ':lsk': lsk,
        ':entityVersion': envelopeTemplateEntity.version,
        ...(read === undefined ? {} : { ':version': read }),
      },
    };
  },
};
