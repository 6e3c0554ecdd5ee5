import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.ts';
import type { NewNote } from '../../../src/domain/store/port.ts';
import { expectCrmError, freshWorkspace, sleep, type Harness } from './harness.ts';
import { deals } from './work.ts';

const UNKNOWN_NOTE = 'nte_00000000000000000000000000';

const note = (title: string, recordIds: string[] = [], extra: Partial<NewNote> = {}): NewNote =>
  ({ kind: 'note', title, body: '', format: 'plain', record_ids: recordIds, created_by: null, ...extra });

export function noteCases(h: Harness): void {
  const list = (workspaceId: string, query: { record_id?: string; kind?: NewNote['kind'] } = {}, offset = 0, limit = 100) =>
    h.store.listNotes(workspaceId, { ...query, offset, limit });

  describe('notes', () => {
    it('writes a note attached to records, in the order given, and reads it back', async () => {
      const ws = await freshWorkspace(h);
      const [a, b] = await deals(h, ws.id, 'A', 'B');
      const written = await h.store.createNote(ws.id, note('Intro call', [b!.id, a!.id], {
        kind: 'call', body: '**Budget** approved', format: 'markdown', created_by: 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      }), []);
      expect(written).toMatchObject({
        workspace_id: ws.id, kind: 'call', title: 'Intro call', body: '**Budget** approved', format: 'markdown',
        record_ids: [b!.id, a!.id], created_by: 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV', deleted_at: null,
      });
      expect(written.id).toMatch(/^nte_/);
      expect(written.updated_at).toBe(written.created_at);
      expect(await h.store.getNote(ws.id, written.id)).toEqual(written);
    });

    it('keeps a given id and writes a free-standing note', async () => {
      const ws = await freshWorkspace(h);
      const id = newId('note');
      expect(await h.store.createNote(ws.id, note('Loose thought', [], { id }), [])).toMatchObject({ id, record_ids: [] });
    });

    it('rejects attaching an unknown or deleted record with not_found, and writes nothing', async () => {
      const ws = await freshWorkspace(h);
      const [live, gone] = await deals(h, ws.id, 'Live', 'Gone');
      await h.store.softDeleteRecord(ws.id, gone!.id);
      await expectCrmError(h.store.createNote(ws.id, note('x', [live!.id, 'rec_00000000000000000000000000']), []), 'not_found');
      await expectCrmError(h.store.createNote(ws.id, note('x', [gone!.id]), []), 'not_found');
      expect((await list(ws.id)).total).toBe(0);
    });

    it('lists live notes newest first, optionally of one record and one kind, with a total', async () => {
      const ws = await freshWorkspace(h);
      const [a, b] = await deals(h, ws.id, 'A', 'B');
      const first = await h.store.createNote(ws.id, note('first', [a!.id]), []);
      await sleep(2);
      const second = await h.store.createNote(ws.id, note('second', [a!.id, b!.id], { kind: 'meeting' }), []);
      await sleep(2);
      const third = await h.store.createNote(ws.id, note('third', [b!.id]), []);
      await sleep(2);
      const loose = await h.store.createNote(ws.id, note('loose'), []);
      const ids = async (query: Parameters<typeof list>[1]) => (await list(ws.id, query)).items.map((n) => n.title);
      expect(await ids({})).toEqual(['loose', 'third', 'second', 'first']);
      expect(await ids({ record_id: a!.id })).toEqual(['second', 'first']);
      expect(await ids({ record_id: b!.id })).toEqual(['third', 'second']);
      expect(await ids({ kind: 'meeting' })).toEqual(['second']);
      expect(await ids({ record_id: a!.id, kind: 'note' })).toEqual(['first']);
      expect((await list(ws.id, {}, 1, 2))).toEqual({ items: [third, second], total: 4 });
      expect((await list(ws.id, { record_id: b!.id })).items[1]).toEqual(second);
      expect(loose.record_ids).toEqual([]);
      expect(first.record_ids).toEqual([a!.id]);
    });

    it('updates only the parts given, replaces the attachments when given, and moves updated_at forward', async () => {
      const ws = await freshWorkspace(h);
      const [a, b, c] = await deals(h, ws.id, 'A', 'B', 'C');
      const before = await h.store.createNote(ws.id, note('Draft', [a!.id, b!.id], { body: 'v1' }), []);
      await sleep(2);
      const retitled = await h.store.updateNote(ws.id, before.id, { title: 'Final', format: 'markdown' }, []);
      expect(retitled).toMatchObject({ title: 'Final', format: 'markdown', body: 'v1', kind: 'note', record_ids: [a!.id, b!.id] });
      expect(retitled.updated_at > before.updated_at).toBe(true);
      const moved = await h.store.updateNote(ws.id, before.id, { record_ids: [c!.id, a!.id] }, []);
      expect(moved.record_ids).toEqual([c!.id, a!.id]);
      expect((await list(ws.id, { record_id: b!.id })).total).toBe(0);
      expect((await list(ws.id, { record_id: c!.id })).items.map((n) => n.id)).toEqual([before.id]);
      expect((await h.store.updateNote(ws.id, before.id, { record_ids: [] }, [])).record_ids).toEqual([]);
      expect(await h.store.getNote(ws.id, before.id)).toMatchObject({ title: 'Final', record_ids: [] });
    });

    it('rejects new attachments to an unknown record with not_found and keeps the note as it was', async () => {
      const ws = await freshWorkspace(h);
      const [a] = await deals(h, ws.id, 'A');
      const before = await h.store.createNote(ws.id, note('Keep', [a!.id]), []);
      await expectCrmError(h.store.updateNote(ws.id, before.id, { title: 'Changed', record_ids: ['rec_00000000000000000000000000'] }, []), 'not_found');
      expect(await h.store.getNote(ws.id, before.id)).toEqual(before);
    });

    it('keeps a deleted record it is already on when its attachments are given again, but attaches no other deleted record', async () => {
      const ws = await freshWorkspace(h);
      const [held, live, other] = await deals(h, ws.id, 'Held', 'Live', 'Other');
      const written = await h.store.createNote(ws.id, note('On three', [held!.id, live!.id]), []);
      await h.store.softDeleteRecord(ws.id, held!.id);
      await h.store.softDeleteRecord(ws.id, other!.id);
      const kept = await h.store.updateNote(ws.id, written.id, { title: 'Again', record_ids: [live!.id, held!.id] }, []);
      expect(kept.record_ids).toEqual([live!.id, held!.id]);
      await expectCrmError(h.store.updateNote(ws.id, written.id, { record_ids: [live!.id, held!.id, other!.id] }, []), 'not_found');
      expect((await h.store.getNote(ws.id, written.id))!.record_ids).toEqual([live!.id, held!.id]);
      // Once dropped, it is a deleted record like any other.
      await h.store.updateNote(ws.id, written.id, { record_ids: [live!.id] }, []);
      await expectCrmError(h.store.updateNote(ws.id, written.id, { record_ids: [live!.id, held!.id] }, []), 'not_found');
    });

    it('soft-deletes a note: gone from get and lists, and no longer changeable', async () => {
      const ws = await freshWorkspace(h);
      const [a] = await deals(h, ws.id, 'A');
      const written = await h.store.createNote(ws.id, note('Gone soon', [a!.id]), []);
      const deleted = await h.store.deleteNote(ws.id, written.id, []);
      expect(deleted).toMatchObject({ id: written.id, title: 'Gone soon', record_ids: [a!.id], deleted_at: expect.any(String) });
      expect(await h.store.getNote(ws.id, written.id)).toBeNull();
      expect(await list(ws.id)).toEqual({ items: [], total: 0 });
      expect((await list(ws.id, { record_id: a!.id })).total).toBe(0);
      await expectCrmError(h.store.updateNote(ws.id, written.id, { title: 'Back?' }, []), 'not_found');
      await expectCrmError(h.store.deleteNote(ws.id, written.id, []), 'not_found');
    });

    it('returns null for an unknown note and rejects changing it with not_found', async () => {
      const ws = await freshWorkspace(h);
      expect(await h.store.getNote(ws.id, UNKNOWN_NOTE)).toBeNull();
      await expectCrmError(h.store.updateNote(ws.id, UNKNOWN_NOTE, { title: 'x' }, []), 'not_found');
      await expectCrmError(h.store.deleteNote(ws.id, UNKNOWN_NOTE, []), 'not_found');
    });
  });
}
