import { rpc, type Harness } from '../e2e/harness.ts';

export const MODERN = '2026-07-28';

/**
 * One raw 2026-07-28 request: the per-request `_meta` envelope (protocol version, client info,
 * client capabilities) and the MCP-Protocol-Version / Mcp-Method headers, no handshake before it.
 */
export function modernRpc(h: Harness, key: string, id: number, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return rpc(h, key, { jsonrpc: '2.0', id, method, params: { ...params, _meta } }, { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...headers });
}
