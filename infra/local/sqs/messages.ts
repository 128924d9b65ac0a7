import { errors } from './errors';
import { type Input, isObject, optString } from './input';
import { isBinaryType, type MessageAttributeValue } from './md5';

// Lone surrogates fall outside every range, which is what SQS rejects as invalid UTF-16 text.
const INVALID_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const ATTRIBUTE_NAME = /^[A-Za-z0-9_.-]{1,256}$/;
const DATA_TYPE = /^(String|Number|Binary)(\.[^\s]+)?$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const MAX_ATTRIBUTES = 10;

export function validateBody(body: string): void {
  if (body.length === 0) {
    throw errors.missingParameter('MessageBody');
  }
  if (INVALID_CHARACTER.test(body)) throw errors.invalidMessageContents();
}

function validateAttributeName(name: string): void {
  const lower = name.toLowerCase();
  if (
    !ATTRIBUTE_NAME.test(name) ||
    name.startsWith('.') ||
    name.endsWith('.') ||
    name.includes('..') ||
    lower.startsWith('aws.') ||
    lower.startsWith('amazon.')
  ) {
    throw errors.invalidParameterValue(`Message attribute name '${name}' is invalid.`);
  }
}

function parseAttribute(name: string, raw: Input): MessageAttributeValue {
  validateAttributeName(name);
  const dataType = optString(raw, 'DataType');
  if (dataType === undefined || dataType.length > 256 || !DATA_TYPE.test(dataType)) {
    throw errors.invalidParameterValue(
      `The message attribute '${name}' has an invalid message attribute type, the set of supported type prefixes is Binary, Number, and String.`,
    );
  }
  // List values are reserved in the API but SQS itself rejects them.
  if (raw.StringListValues !== undefined || raw.BinaryListValues !== undefined) {
    throw errors.invalidParameterValue(`Message attribute list values in '${name}' are not supported.`);
  }
  if (isBinaryType(dataType)) {
    const value = optString(raw, 'BinaryValue');
    if (value === undefined || value.length === 0) {
      throw errors.invalidParameterValue(
        `The message attribute '${name}' must contain a non-empty value of type 'Binary'.`,
      );
    }
    return { DataType: dataType, BinaryValue: value };
  }
  const value = optString(raw, 'StringValue');
  if (value === undefined || value.length === 0) {
    throw errors.invalidParameterValue(
      `The message attribute '${name}' must contain a non-empty value of type 'String'.`,
    );
  }
  if (INVALID_CHARACTER.test(value)) throw errors.invalidMessageContents();
  if (dataType.startsWith('Number') && !NUMBER.test(value)) {
    throw errors.invalidParameterValue(
      `Can't cast the value of message (user) attribute '${name}' to a number.`,
    );
  }
  return { DataType: dataType, StringValue: value };
}

export function parseMessageAttributes(raw: Record<string, Input>): Record<string, MessageAttributeValue> {
  const names = Object.keys(raw);
  if (names.length > MAX_ATTRIBUTES) {
    throw errors.invalidParameterValue(
      `Number of message attributes [${names.length}] exceeds the allowed maximum [${MAX_ATTRIBUTES}].`,
    );
  }
  const parsed: Record<string, MessageAttributeValue> = {};
  for (const name of names) {
    const value = raw[name];
    if (!isObject(value)) throw errors.invalidParameterValue(`Message attribute '${name}' is invalid.`);
    parsed[name] = parseAttribute(name, value);
  }
  return parsed;
}

/** SQS counts the body plus every attribute's name, type and value against MaximumMessageSize. */
export function messageSize(body: string, attributes: Record<string, MessageAttributeValue>): number {
  let size = Buffer.byteLength(body, 'utf8');
  for (const [name, attribute] of Object.entries(attributes)) {
    size += Buffer.byteLength(name, 'utf8') + Buffer.byteLength(attribute.DataType, 'utf8');
    size +=
      attribute.BinaryValue !== undefined
        ? Buffer.from(attribute.BinaryValue, 'base64').length
        : Buffer.byteLength(attribute.StringValue ?? '', 'utf8');
  }
  return size;
}

/** MessageAttributeNames filter: exact names, "All", ".*", or "prefix.*". */
export function selectMessageAttributes(
  attributes: Record<string, MessageAttributeValue>,
  requested: string[],
): Record<string, MessageAttributeValue> {
  if (requested.length === 0) return {};
  const all = requested.some((name) => name === 'All' || name === '.*');
  const prefixes = requested.filter((name) => name.endsWith('.*')).map((name) => name.slice(0, -1));
  const selected: Record<string, MessageAttributeValue> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (all || requested.includes(name) || prefixes.some((prefix) => name.startsWith(prefix))) {
      selected[name] = value;
    }
  }
  return selected;
}
