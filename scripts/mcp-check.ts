/**
 * Runs an external MCP client (the conformance suite, the Inspector CLI) against a fresh server:
 * starts the gateway on an empty temporary data directory, puts a loopback proxy in front of
 * it that adds the bootstrapped owner's key to every request (those tools cannot all send
 * headers), runs the command with `{url}` replaced by the proxy's MCP URL, and exits with the
 * command's exit code.
 *
 *   npx tsx scripts/mcp-check.ts <command> [args with {url}]...
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../gateway/config.ts';
import { startServer } from '../gateway/server.ts';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: tsx scripts/mcp-check.ts <command> [args with {url}]...');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'crm-mcp-check-'));
const config = loadConfig({ ...process.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' });
const gateway = await startServer(config);
const key = gateway.bootstrapped!.key;
const target = new URL(gateway.url);

/** Forwards one request unchanged (Host and Origin included), adding the key when absent. */
function forward(req: IncomingMessage, res: ServerResponse): void {
  const headers = { ...req.headers, ...(req.headers.authorization ? {} : { authorization: `Bearer ${key}` }) };
  const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

const proxy = createServer(forward);
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${config.mcpPrefix}/`;
console.log(`MCP at ${url} (key added by the proxy)`);

const child = spawn(command, args.map((a) => a.replaceAll('{url}', url)), { stdio: 'inherit' });
const code = await new Promise<number>((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
proxy.close();
await gateway.close();
rmSync(dir, { recursive: true, force: true });
process.exit(code);
