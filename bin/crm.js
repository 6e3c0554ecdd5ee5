#!/usr/bin/env node
// The `crm` command: loads the TypeScript CLI through the service's own loader (no build step).
import '../gateway/loader/register.mjs';

const { main, startsServer } = await import('../gateway/cli.ts');
const args = process.argv.slice(2);
const code = await main(args);
// A started server keeps the process alive; any other command ends it with its exit code.
if (!startsServer(args) || code !== 0) process.exit(code);
