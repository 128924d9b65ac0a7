#!/usr/bin/env node
// `npx esign-verify <file.pdf>`: the verifier is TypeScript, run through tsx (a dependency of
// this repository), so a clone needs `npm install` and nothing else; no build step.
import { register } from 'tsx/esm/api';

register();
await import('../infra/verify/main.ts');
