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
  return new CallServices(store, actor);
}

/**
 * Each service is made the first time the call asks for it and kept for the rest of the call, so
 * the services a call uses share one instance each (records and lists see the same objects
 * service and its object-type cache). A tool touches one or two of the seventeen: building all of
 * them for every call (the graph service with its neighbour batcher among them) was allocation
 * and set-up most calls threw away.
 */
class CallServices implements Services {
  #objects?: ObjectService;
  #records?: RecordService;
  #lists?: ListService;
  #views?: ViewService;
  #notes?: NoteService;
  #tasks?: TaskService;
  #timeline?: TimelineService;
  #reports?: ReportService;
  #analytics?: AnalyticsService;
  #email?: EmailService;
  #messages?: MessageService;
  #meetings?: MeetingService;
  #integrations?: IntegrationService;
  #billing?: BillingService;
  #graph?: GraphService;
  #classify?: ClassifyService;
  #settings?: WorkspaceSettingsService;

  constructor(private readonly store: Store, private readonly actor: Actor) {}

  get objects(): ObjectService {
    return (this.#objects ??= new ObjectService(this.store, this.actor));
  }
  get records(): RecordService {
    return (this.#records ??= new RecordService(this.store, this.actor, this.objects));
  }
  get lists(): ListService {
    return (this.#lists ??= new ListService(this.store, this.actor, this.objects, this.records));
  }
  get views(): ViewService {
    return (this.#views ??= new ViewService(this.store, this.actor, this.objects));
  }
  get notes(): NoteService {
    return (this.#notes ??= new NoteService(this.store, this.actor, this.records));
  }
  get tasks(): TaskService {
    return (this.#tasks ??= new TaskService(this.store, this.actor, this.records));
  }
  get timeline(): TimelineService {
    return (this.#timeline ??= new TimelineService(this.store, this.actor));
  }
  get reports(): ReportService {
    return (this.#reports ??= new ReportService(this.store, this.actor, this.objects));
  }
  get analytics(): AnalyticsService {
    return (this.#analytics ??= new AnalyticsService(this.store, this.actor, this.objects));
  }
  get email(): EmailService {
    return (this.#email ??= new EmailService(this.store, this.actor));
  }
  get messages(): MessageService {
    return (this.#messages ??= new MessageService(this.store, this.actor));
  }
  get meetings(): MeetingService {
    return (this.#meetings ??= new MeetingService(this.store, this.actor));
  }
  get integrations(): IntegrationService {
    return (this.#integrations ??= new IntegrationService(this.store, this.actor));
  }
  get billing(): BillingService {
    return (this.#billing ??= new BillingService(this.store, this.actor));
  }
  get graph(): GraphService {
    return (this.#graph ??= new GraphService(this.store, this.actor, this.objects, this.records));
  }
  get classify(): ClassifyService {
    return (this.#classify ??= new ClassifyService(this.store, this.actor, this.records));
  }
  get settings(): WorkspaceSettingsService {
    return (this.#settings ??= new WorkspaceSettingsService(this.store, this.actor));
  }
}
