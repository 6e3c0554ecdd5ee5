import type { Store } from '../src/domain/store/port.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import type { Principal } from './tools/invoke.ts';

/** Which edge answered: decides how errors are rendered. */
export type Edge = 'rest' | 'bridge' | 'mcp' | 'graphql' | 'ops';

export interface GatewayState {
  edge: Edge;
  principal?: Principal;
  /** The call's id: the caller's sane `X-Request-Id`, else generated; echoed on every answer. */
  requestId: string;
  /** Filled by the transports for the access log and metrics; never holds parameters. */
  call: CallInfo;
}

/** What one call was, for logs and metrics: the tool name and the outcome code. */
export interface CallInfo {
  tool?: string;
  code?: string;
}

/** What the transports share; built once by app.ts. */
export interface GatewayDeps {
  config: Config;
  store: Store;
  logger: Logger;
}
