import type { Store } from '../store/port.ts';
import type { Actor } from '../actor.ts';
import { ClassifyService } from './classify.ts';
import { GraphService } from './graph.ts';
import { ListService } from './lists.ts';
import { NoteService } from './notes.ts';
import { ObjectService } from './objects.ts';
import { RecordService } from './records.ts';
import { TaskService } from './tasks.ts';
import { TimelineService } from './timeline.ts';
import { ViewService } from './views.ts';

/** The domain services for one call, bound to its actor. Built per request; cheap. */
export interface Services {
  objects: ObjectService;
  records: RecordService;
  lists: ListService;
  views: ViewService;
  notes: NoteService;
  tasks: TaskService;
  timeline: TimelineService;
  graph: GraphService;
  classify: ClassifyService;
}

export function createServices(store: Store, actor: Actor): Services {
  const objects = new ObjectService(store, actor);
  const records = new RecordService(store, actor, objects);
  return {
    objects,
    records,
    lists: new ListService(store, actor, objects, records),
    views: new ViewService(store, actor, objects),
    notes: new NoteService(store, actor, records),
    tasks: new TaskService(store, actor, records),
    timeline: new TimelineService(store, actor),
    graph: new GraphService(store, actor, objects, records),
    classify: new ClassifyService(store, actor, records),
  };
}
