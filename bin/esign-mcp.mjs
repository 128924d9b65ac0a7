#!/usr/bin/env node
// `npx esign-mcp`: the MCP server over stdio (infra/mcp/main.ts), TypeScript run through tsx as
// `esign-verify` is, so a clone needs `npm install` and nothing else; no build step.
import { register } from 'tsx/esm/api';

register();
await import('../infra/mcp/main.ts');
