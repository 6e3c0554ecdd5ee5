#!/usr/bin/env node
// The `crm` command: loads the TypeScript CLI through the service's own loader (no build step).
import '../gateway/loader/register.mjs';

const { main } = await import('../gateway/cli.ts');
const args = process.argv.slice(2);
const code = await main(args);
if (args[0] !== 'serve' || code !== 0) process.exit(code);
