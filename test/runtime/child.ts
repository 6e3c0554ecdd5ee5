/** Test helpers over a `crm serve` child process. */
export { startChild, type ServerChild } from '../../bench/lib/crm-serve.ts';

/** One per-tool REST call; `ok` only for a 200 whose body was read whole. */
export async function rest(url: string, key: string, tool: string, params: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${url}/v1/${tool.replace('.', '/')}`, {
    method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(params),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}
