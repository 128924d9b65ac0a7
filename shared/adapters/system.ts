import { randomUUID } from 'node:crypto';
import type { TClock, TIds } from '../ports';

export const systemClock: TClock = { now: () => new Date() };
export const randomIds: TIds = { uuid: () => randomUUID() };
