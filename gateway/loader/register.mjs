/**
 * Loads the service's TypeScript without a build step: `node --import ./gateway/loader/register.mjs
 * gateway/cli.ts serve` (what `npm start`, the `crm` command and the Docker image run). Stack
 * traces point into the `.ts` sources through the inline source maps the hooks add.
 */
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
process.setSourceMapsEnabled(true);
