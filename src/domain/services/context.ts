import type { Store } from '../store/port.ts';
import type { Actor } from '../actor.ts';
import { AnalyticsService } from './analytics.ts';
import { BillingService } from './billing.ts';
import { EmailService } from './email.ts';
import { IntegrationService } from './integrations.ts';
import { ClassifyService } from './classify.ts';
import { GraphService } from './graph.ts';
import { ListService } from './lists.ts';
import { MeetingService } from './meetings.ts';
import { MessageService } from './messages.ts';
import { NoteService } from './notes.ts';
import { ObjectService } from './objects.ts';
import { RecordService } from './records.ts';
import { ReportService } from './reports.ts';
import { TaskService } from './tasks.ts';
import { TimelineService } from './timeline.ts';
import { ViewService } from './views.ts';
import { WorkspaceSettingsService } from './workspace-settings.ts';

/** The domain services for one call, bound to its actor. Built per request; cheap. */
export interface Services {
  objects: ObjectService;
  records: RecordService;
  lists: ListService;
  views: ViewService;
  notes: NoteService;
  tasks: TaskService;
  timeline: TimelineService;
  reports: ReportService;
  analytics: AnalyticsService;
  email: EmailService;
  messages: MessageService;
  meetings: MeetingService;
  integrations: IntegrationService;
  billing: BillingService;
  graph: GraphService;
  classify: ClassifyService;
  settings: WorkspaceSettingsService;
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
    reports: new ReportService(store, actor, objects),
    analytics: new AnalyticsService(store, actor, objects),
    email: new EmailService(store, actor),
    messages: new MessageService(store, actor),
    meetings: new MeetingService(store, actor),
    integrations: new IntegrationService(store, actor),
    billing: new BillingService(store, actor),
    graph: new GraphService(store, actor, objects, records),
    classify: new ClassifyService(store, actor, records),
    settings: new WorkspaceSettingsService(store, actor),
  };
}
