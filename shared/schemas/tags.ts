import * as z from 'zod';
import { zList, zText } from './common';

export const ZTagsRequestSchema = z.object({
  tags: zList(zText(100).trim().min(1, 'A tag may not be blank.'), { max: 50 }),
});
