import type { Store } from '../../store/port.ts';
import type { Actor } from '../actor.ts';
import { ObjectService } from './objects.ts';
import { RecordService } from './records.ts';

/** The domain services for one call, bound to its actor. Built per request; cheap. */
export interface Services {
  objects: ObjectService;
  records: RecordService;
}

export function createServices(store: Store, actor: Actor): Services {
  const objects = new ObjectService(store, actor);
  return { objects, records: new RecordService(store, actor, objects) };
}
