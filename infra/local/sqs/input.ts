import { errors } from './errors';

/** A decoded JSON request object; every field is checked before use because clients other than the SDK may call. */
export type Input = Record<string, unknown>;

export function isObject(value: unknown): value is Input {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asInput(value: unknown): Input {
  if (!isObject(value)) throw errors.serialization('The request body must be a JSON object.');
  return value;
}

export function optString(input: Input, key: string): string | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw errors.invalidParameterValue(`Value for parameter ${key} must be a string.`);
  return value;
}

export function reqString(input: Input, key: string): string {
  const value = optString(input, key);
  if (value === undefined) throw errors.missingParameter(key);
  return value;
}

export function optInt(input: Input, key: string, min: number, max: number): number | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw errors.invalidParameterValue(
      `Value ${String(value)} for parameter ${key} is invalid. Reason: must be an integer between ${min} and ${max}.`,
    );
  }
  return value;
}

export function optStringList(input: Input, key: string): string[] {
  const value = input[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw errors.invalidParameterValue(`Value for parameter ${key} must be a list of strings.`);
  }
  return value as string[];
}

export function optStringMap(input: Input, key: string): Record<string, string> {
  const value = input[key];
  if (value === undefined || value === null) return {};
  if (!isObject(value) || Object.values(value).some((item) => typeof item !== 'string')) {
    throw errors.invalidParameterValue(`Value for parameter ${key} must be a map of strings.`);
  }
  return value as Record<string, string>;
}

export function optObjectList(input: Input, key: string): Input[] {
  const value = input[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every(isObject)) {
    throw errors.invalidParameterValue(`Value for parameter ${key} must be a list of objects.`);
  }
  return value;
}

export function optObjectMap(input: Input, key: string): Record<string, Input> {
  const value = input[key];
  if (value === undefined || value === null) return {};
  if (!isObject(value) || !Object.values(value).every(isObject)) {
    throw errors.invalidParameterValue(`Value for parameter ${key} must be a map of objects.`);
  }
  return value as Record<string, Input>;
}
