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
  owner: string;
  resolve(html: string): void;
  reject(error: MarkdownError): void;
}

type Reply = { id: number; html: string } | { id: number; rule: 'max_depth' | 'render'; message: string };

/** A worker thread and the body it renders. */
interface Lane {
  worker: Worker | null;
  current: { id: number; job: Job; timer: NodeJS.Timeout } | null;
}

/**
 * Worker threads that render at once. A caller may have one body rendering at a time (per
 * `owner`, a workspace), so one sending slow bodies holds at most one lane and waits behind its
 * own, while the others' bodies take the other lane.
 */
const LANES = 2;
const lanes: Lane[] = Array.from({ length: LANES }, () => ({ worker: null, current: null }));
const jobs: Job[] = [];
const rendering = new Set<string>();
let nextId = 0;

/**
 * Renders a markdown body to HTML in a worker thread, each body within MARKDOWN_RENDER_MS and
 * MARKDOWN_MAX_DEPTH. marked's cost grows faster than the text for some shapes (deep nesting,
 * long runs of emphasis marks, lazy quote lines), so no body is rendered on the event loop: a slow
 * one costs its own caller the deadline, never the other calls, and an owner's bodies render one
 * at a time, so its slow ones delay only its own. Rejects with a MarkdownError.
 */
export function renderMarkdown(source: string, owner = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    jobs.push({ source, owner, resolve, reject });
    dispatch();
  });
}

/** Hands each idle lane the first waiting body whose owner has none rendering. */
function dispatch(): void {
  for (const lane of lanes) {
    if (lane.current) continue;
    const i = jobs.findIndex((j) => !rendering.has(j.owner));
    if (i < 0) break;
    run(lane, jobs.splice(i, 1)[0]!);
  }
  // An idle worker does not keep the process alive (the CLI, tests).
  for (const lane of lanes) if (!lane.current) lane.worker?.unref();
}

function run(lane: Lane, job: Job): void {
  const w = lane.worker ?? start(lane);
  w.ref();
  rendering.add(job.owner);
  const id = ++nextId;
  const timer = setTimeout(() => {
    // The thread is busy in marked and cannot be interrupted: end it and start afresh for the next body.
    stop(lane, new MarkdownError('render_time', `markdown took longer than ${MARKDOWN_RENDER_MS} ms to render`));
  }, MARKDOWN_RENDER_MS);
  lane.current = { id, job, timer };
  w.postMessage({ id, source: job.source });
}

/** The lane's body is done: its owner may render the next one. */
function finish(lane: Lane): Job | null {
  if (!lane.current) return null;
  const { job, timer } = lane.current;
  clearTimeout(timer);
  lane.current = null;
  rendering.delete(job.owner);
  return job;
}

function start(lane: Lane): Worker {
  const w = new Worker(new URL('./markdown-render.mjs', import.meta.url), {
    workerData: { maxDepth: MARKDOWN_MAX_DEPTH },
    resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 4 },
  });
  w.on('message', (reply: Reply) => {
    if (!lane.current || reply.id !== lane.current.id) return;
    const job = finish(lane)!;
    if ('html' in reply) job.resolve(reply.html);
    else if (reply.rule === 'max_depth') job.reject(new MarkdownError('max_depth', `markdown nests more than ${MARKDOWN_MAX_DEPTH} levels deep`));
    else job.reject(new MarkdownError('render', `markdown could not be rendered: ${reply.message}`));
    dispatch();
  });
  w.on('error', (error) => stop(lane, new MarkdownError('render', `markdown could not be rendered: ${error.message}`), w));
  w.on('exit', () => stop(lane, new MarkdownError('render', 'markdown could not be rendered: the renderer stopped'), w));
  lane.worker = w;
  return w;
}

/** Fails the lane's body in flight, drops its worker (or the one that already ended), and goes on with the queue. */
function stop(lane: Lane, error: MarkdownError, which: Worker | null = lane.worker): void {
  if (which !== lane.worker) return;
  const w = lane.worker;
  lane.worker = null;
  finish(lane)?.reject(error);
  if (w) void w.terminate();
  dispatch();
}
