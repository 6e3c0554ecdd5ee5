import type { Store } from '../src/domain/store/port.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import type { Principal } from './tools/invoke.ts';

/** Which edge answered: decides how errors are rendered. */
export type Edge = 'rest' | 'bridge' | 'mcp' | 'graphql' | 'ops';

export interface GatewayState {
  edge: Edge;
  principal?: Principal;
}

/** What the transports share; built once by app.ts. */
export interface GatewayDeps {
  config: Config;
  store: Store;
  logger: Logger;
}
