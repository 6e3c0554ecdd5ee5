/** The `--import` argument that runs the service's TypeScript in a Node process, as `npm start` does. */
export const TS_LOADER = new URL('./register.mjs', import.meta.url).href;
