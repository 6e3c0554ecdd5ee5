import { afterAll, beforeAll, describe } from 'vitest';
import type { Store } from '../../src/domain/store/port.ts';
import type { Harness } from './conformance/harness.ts';
import { aggregateTotalCases } from './conformance/aggregate-totals.cases.ts';
import { bulkRecordCases } from './conformance/bulk-records.cases.ts';
import { commCases } from './conformance/comms.cases.ts';
import { entryCases } from './conformance/entries.cases.ts';
import { filterCases } from './conformance/filters.cases.ts';
import { graphCases } from './conformance/graph.cases.ts';
import { idempotencyCases } from './conformance/idempotency.cases.ts';
import { isolationCases } from './conformance/isolation.cases.ts';
import { keyHolderCases } from './conformance/key-holder.cases.ts';
import { listCases } from './conformance/lists.cases.ts';
import { noteCases } from './conformance/notes.cases.ts';
import { objectTypeCases } from './conformance/object-types.cases.ts';
import { recordCases } from './conformance/records.cases.ts';
import { recordSummaryCases } from './conformance/record-summaries.cases.ts';
import { relationCases } from './conformance/relations.cases.ts';
import { reportMatrixCases } from './conformance/report-matrix.cases.ts';
import { reportCases } from './conformance/reports.cases.ts';
import { searchCases } from './conformance/search.cases.ts';
import { settingsCases } from './conformance/settings.cases.ts';
import { sortingCases } from './conformance/sorting.cases.ts';
import { taskCases } from './conformance/tasks.cases.ts';
import { timelineCases } from './conformance/timeline.cases.ts';
import { totalCases } from './conformance/totals.cases.ts';
import { viewCases } from './conformance/views.cases.ts';
import { workIsolationCases } from './conformance/work-isolation.cases.ts';

export type StoreFactory = () => Promise<{ store: Store; cleanup: () => Promise<void> }>;

/**
 * Registers the Store conformance suite for one adapter. The factory may return a store that is
 * not initialised yet; the suite calls `init()`. Every test works in a workspace of its own with
 * unique names, so the suite also runs on a shared database.
 */
export function runStoreConformance(adapterName: string, factory: StoreFactory): void {
  describe(`Store conformance: ${adapterName}`, () => {
    let store: Store | undefined;
    let cleanup: (() => Promise<void>) | undefined;
    const harness: Harness = {
      adapter: adapterName,
      get store(): Store {
        if (!store) throw new Error(`the ${adapterName} store is not ready`);
        return store;
      },
    };

    beforeAll(async () => {
      ({ store, cleanup } = await factory());
      await store.init();
    });

    afterAll(async () => {
      await cleanup?.();
    });

    settingsCases(harness);
    keyHolderCases(harness);
    objectTypeCases(harness);
    recordCases(harness);
    recordSummaryCases(harness);
    relationCases(harness);
    filterCases(harness);
    totalCases(harness);
    sortingCases(harness);
    searchCases(harness);
    isolationCases(harness);
    bulkRecordCases(harness);
    listCases(harness);
    entryCases(harness);
    viewCases(harness);
    noteCases(harness);
    taskCases(harness);
    timelineCases(harness);
    workIsolationCases(harness);
    reportCases(harness);
    reportMatrixCases(harness);
    aggregateTotalCases(harness);
    commCases(harness);
    graphCases(harness);
    idempotencyCases(harness);
  });
}
