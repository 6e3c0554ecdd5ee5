// The worker thread that renders email markdown (markdown.ts starts it). Plain JavaScript, so the
// thread loads without the service's TypeScript loader, under the server, the CLI and the tests.
import { parentPort, workerData } from 'node:worker_threads';
import { Marked, Tokenizer } from 'marked';

class NestingError extends Error {}

// marked recurses once per level of block quotes and list items (block phase) and of links,
// emphasis and strikethrough (inline phase), reading the rest of the text again at each level.
const NESTING = ['blockquote', 'list', 'link', 'reflink', 'emStrong', 'del'];

/**
 * A tokenizer that counts those calls and stops past `max` levels, before the work (or the stack)
 * runs away. The content of every level is probed for one more level (most probes find none), so
 * a call at depth max + 1 is a probe, and only one deeper means a level past the bound.
 */
function guardedTokenizer(max) {
  const tokenizer = new Tokenizer();
  let depth = 0;
  for (const name of NESTING) {
    const original = tokenizer[name];
    tokenizer[name] = function (...args) {
      if (++depth > max + 1) throw new NestingError();
      try {
        return original.apply(this, args);
      } finally {
        depth--;
      }
    };
  }
  return tokenizer;
}

const marked = new Marked({ async: false, gfm: true });

parentPort.on('message', ({ id, source }) => {
  try {
    const html = marked.parse(source, { tokenizer: guardedTokenizer(workerData.maxDepth) });
    parentPort.postMessage({ id, html });
  } catch (error) {
    // marked appends a plea to report the bug to the message; keep the first line only.
    const message = String(error?.message ?? error).split('\n')[0];
    parentPort.postMessage({ id, rule: error instanceof NestingError ? 'max_depth' : 'render', message });
  }
});
