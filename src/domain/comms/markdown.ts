import { Worker } from 'node:worker_threads';

/** How deeply markdown may nest block quotes, list items, links and emphasis in one another. */
export const MARKDOWN_MAX_DEPTH = 10;
/** How long one markdown body may take to render. */
export const MARKDOWN_RENDER_MS = 1_000;

export type MarkdownRule = 'max_depth' | 'render_time' | 'render';

/** Why a markdown body cannot be rendered; `rule` says which bound it broke (or that marked failed). */
export class MarkdownError extends Error {
  constructor(readonly rule: MarkdownRule, message: string) {
    super(message);
    this.name = 'MarkdownError';
  }
}

interface Job {
  source: string;
  resolve(html: string): void;
  reject(error: MarkdownError): void;
}

type Reply = { id: number; html: string } | { id: number; rule: 'max_depth' | 'render'; message: string };

const jobs: Job[] = [];
let worker: Worker | null = null;
let current: { id: number; job: Job; timer: NodeJS.Timeout } | null = null;
let nextId = 0;

/**
 * Renders a markdown body to HTML in a worker thread, one body at a time, each within
 * MARKDOWN_RENDER_MS and MARKDOWN_MAX_DEPTH. marked's cost grows faster than the text for some
 * shapes (deep nesting, long runs of emphasis marks, lazy quote lines), so no body is rendered on
 * the event loop: a slow one costs its own caller the deadline, never the other calls. Rejects
 * with a MarkdownError.
 */
export function renderMarkdown(source: string): Promise<string> {
  return new Promise((resolve, reject) => {
    jobs.push({ source, resolve, reject });
    if (!current) next();
  });
}

function next(): void {
  const job = jobs.shift();
  if (!job) {
    // An idle worker does not keep the process alive (the CLI, tests).
    worker?.unref();
    return;
  }
  const w = worker ?? start();
  w.ref();
  const id = ++nextId;
  const timer = setTimeout(() => {
    // The thread is busy in marked and cannot be interrupted: end it and start afresh for the next body.
    stop(new MarkdownError('render_time', `markdown took longer than ${MARKDOWN_RENDER_MS} ms to render`));
  }, MARKDOWN_RENDER_MS);
  current = { id, job, timer };
  w.postMessage({ id, source: job.source });
}

function start(): Worker {
  const w = new Worker(new URL('./markdown-render.mjs', import.meta.url), {
    workerData: { maxDepth: MARKDOWN_MAX_DEPTH },
    resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 4 },
  });
  w.on('message', (reply: Reply) => {
    if (!current || reply.id !== current.id) return;
    const { job, timer } = current;
    clearTimeout(timer);
    current = null;
    if ('html' in reply) job.resolve(reply.html);
    else if (reply.rule === 'max_depth') job.reject(new MarkdownError('max_depth', `markdown nests more than ${MARKDOWN_MAX_DEPTH} levels deep`));
    else job.reject(new MarkdownError('render', `markdown could not be rendered: ${reply.message}`));
    next();
  });
  w.on('error', (error) => stop(new MarkdownError('render', `markdown could not be rendered: ${error.message}`), w));
  w.on('exit', () => stop(new MarkdownError('render', 'markdown could not be rendered: the renderer stopped'), w));
  worker = w;
  return w;
}

/** Fails the body in flight, drops the worker (or the one that already ended), and goes on with the queue. */
function stop(error: MarkdownError, which: Worker | null = worker): void {
  if (which !== worker) return;
  const w = worker;
  worker = null;
  if (current) {
    clearTimeout(current.timer);
    current.job.reject(error);
    current = null;
  }
  if (w) void w.terminate();
  next();
}
