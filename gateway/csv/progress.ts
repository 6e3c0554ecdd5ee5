/** Where progress goes: a terminal (redrawn bar) or a pipe/file (plain lines). */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(chunk: string): unknown;
}

export interface ProgressState {
  /** Fraction of the input read, 0 to 1. */
  fraction: number;
  rows: number;
  imported: number;
  rejected: number;
}

const BAR_WIDTH = 30;

/**
 * Renders import progress. On a TTY it redraws one line with a bar (`\r`, at most once per whole
 * percent); elsewhere it writes a plain line at each tenth of the input, so logs stay short.
 */
export class ProgressRenderer {
  #lastPercent = -1;
  #lastTenth = 0;

  constructor(private readonly out: ProgressStream) {}

  update(s: ProgressState): void {
    const percent = Math.min(100, Math.floor(s.fraction * 100));
    if (this.out.isTTY) {
      if (percent === this.#lastPercent) return;
      this.#lastPercent = percent;
      const filled = Math.round((percent / 100) * BAR_WIDTH);
      this.out.write(`\r[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(percent).padStart(3)}%  ${s.rows} rows, ${s.imported} imported, ${s.rejected} rejected`);
      return;
    }
    const tenth = Math.floor(percent / 10);
    if (tenth <= this.#lastTenth || tenth >= 10) return;
    this.#lastTenth = tenth;
    this.out.write(`progress ${tenth * 10}%: ${s.rows} rows read, ${s.imported} imported, ${s.rejected} rejected\n`);
  }

  /** The last line: on a TTY it completes the bar and ends the line. */
  done(s: ProgressState): void {
    if (this.out.isTTY) {
      this.#lastPercent = -1;
      this.update({ ...s, fraction: 1 });
      this.out.write('\n');
    } else {
      this.out.write(`progress 100%: ${s.rows} rows read, ${s.imported} imported, ${s.rejected} rejected\n`);
    }
  }
}
