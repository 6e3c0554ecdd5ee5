import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hammer } from '../../bench/lib/measure.ts';
import type { HttpCall } from '../../bench/lib/styles.ts';

const call = (): HttpCall => ({ method: 'POST', path: '/', headers: {}, body: '{}' });

describe('bench cells: work a cell leaves behind', () => {
  let server: Server;
  let url = '';
  let answered = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      answered++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('charges the server CPU used in the afterwards step to the run, once the load has stopped', async () => {
    // A CPU clock that the test moves: 1 s over the load, then 0.5 s more in the afterwards step.
    let cpu = 10;
    let afterwardsCalls = 0;
    const reads: number[] = [];
    const clock = () => {
      reads.push(cpu);
      return cpu;
    };
    const figures = await hammer(url, call, undefined, { connections: 2, seconds: 1, warmupSeconds: 0 }, () => {
      const now = clock();
      if (reads.length === 1) cpu += 1; // the next read is the one at the end of the load
      return now;
    }, undefined, async () => {
      afterwardsCalls++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      cpu += 0.5;
    });
    expect(afterwardsCalls).toBe(1);
    expect(answered).toBeGreaterThan(0);
    expect(figures.calls).toBeGreaterThan(0);
    // Read before the load, when it stopped and after the step: the step ran between the last two.
    expect(reads).toEqual([10, 11, 11.5]);
    expect(figures.server_cpu_ms_per_call! / figures.server_cpu_left_ms_per_call!).toBeCloseTo(3, 9);
    expect(figures.server_cpu_ms_per_call! * figures.calls).toBeCloseTo(1500, 0);
  });

  it('reports no left-behind share when there is no afterwards step', async () => {
    let cpu = 0;
    const figures = await hammer(url, call, undefined, { connections: 1, seconds: 1, warmupSeconds: 0 }, () => (cpu += 1));
    expect(figures.server_cpu_ms_per_call).toBeGreaterThan(0);
    expect(figures.server_cpu_left_ms_per_call).toBeUndefined();
  });
});
