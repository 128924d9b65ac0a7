import { createHash } from 'node:crypto';

/** A message attribute as it travels over JSON 1.0: binary values stay base64-encoded. */
export interface MessageAttributeValue {
  DataType: string;
  StringValue?: string;
  BinaryValue?: string;
}

export function md5Hex(data: string | Uint8Array): string {
  return createHash('md5').update(data).digest('hex');
}

/** Binary transport is chosen by DataType prefix; custom labels ("Binary.png") keep their base type. */
export function isBinaryType(dataType: string): boolean {
  return dataType === 'Binary' || dataType.startsWith('Binary.');
}

function lengthPrefixed(bytes: Uint8Array): Buffer[] {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length, 0);
  return [length, Buffer.from(bytes)];
}

/**
 * MD5OfMessageAttributes as AWS documents it (SQS developer guide, "Calculating the MD5 message digest
 * for message attributes"): attributes sorted by name, each encoded as length-prefixed name, length-prefixed
 * data type, a one-byte transport type (1 string, 2 binary) and the length-prefixed value.
 * Returns undefined for no attributes because SQS omits the field then.
 */
export function md5OfMessageAttributes(
  attributes: Record<string, MessageAttributeValue>,
): string | undefined {
  const names = Object.keys(attributes).sort();
  if (names.length === 0) return undefined;
  const parts: Buffer[] = [];
  for (const name of names) {
    const attribute = attributes[name]!;
    parts.push(...lengthPrefixed(Buffer.from(name, 'utf8')));
    parts.push(...lengthPrefixed(Buffer.from(attribute.DataType, 'utf8')));
    if (isBinaryType(attribute.DataType)) {
      parts.push(Buffer.from([2]));
      parts.push(...lengthPrefixed(Buffer.from(attribute.BinaryValue ?? '', 'base64')));
    } else {
      parts.push(Buffer.from([1]));
      parts.push(...lengthPrefixed(Buffer.from(attribute.StringValue ?? '', 'utf8')));
    }
  }
  return md5Hex(Buffer.concat(parts));
}
